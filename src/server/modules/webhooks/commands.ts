import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import {
  type createWebhookEndpointSchema,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_GIVE_UP_HOURS,
  WEBHOOK_OLD_SECRET_HOURS,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEvent,
} from '../../../shared/partner-api';
import type { Account } from '../../common/account';
import { lockAccount } from '../../common/accounts';
import { recordAudit } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import type { Db } from '../../db/client';
import { users, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { sealText } from '../../encryption';
import { queueMail } from '../../mail/queue';
import { checkWebhookUrl, UnsafeWebhookUrl } from './address';
import { toDelivery } from './queries';
import type { Attempt } from './send';

export const SECRET_PURPOSE = 'webhook.secret';
const NOT_FOUND = 'Webhook endpoint not found';
const HOUR = 60 * 60 * 1000;
/** A claimed delivery not recorded in this long (its instance died) is tried again. */
const CLAIM_MS = 60 * 1000;
/**
 * The Standard Webhooks schedule: after the first try at once, again 5 s, 5 min, 30 min, 2 h, 5 h
 * and 10 h later, then every 10 h until 3 days have passed.
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * HOUR, 5 * HOUR, 10 * HOUR];
export const retryDelay = (attempts: number) =>
  RETRY_DELAYS_MS[attempts - 1] ?? RETRY_DELAYS_MS.at(-1)!;

/** `whsec_` and 32 random bytes in base64, as the standardwebhooks library reads a secret. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

async function ownEndpoint(tx: Db, userId: string, id: string) {
  if (!isUuid(id)) throw notFound(NOT_FOUND);
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .for('update');
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** A seller registers an endpoint (up to 5): its URL checked, its secret answered once. */
export async function createWebhookEndpoint(
  context: CommandContext,
  account: Account,
  input: z.infer<typeof createWebhookEndpointSchema>,
): Promise<Outcome<{ id: string; url: string; events: WebhookEvent[]; secret: string }>> {
  try {
    await checkWebhookUrl(input.url, context.config.webhooks);
  } catch (error) {
    if (error instanceof UnsafeWebhookUrl) throw badRequest(error.message, 'url');
    throw error;
  }
  const secret = newSecret();
  const value = await context.db.transaction(async (tx) => {
    // The seller's row locked: two registrations count in turn against the 5.
    await lockAccount(tx, account.id);
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, account.id));
    if ((existing?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new HttpError(
        409,
        `You can register at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one first.`,
        undefined,
        { code: 'too_many_endpoints' },
      );
    }
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        userId: account.id,
        url: input.url,
        events: input.events,
        secret: sealText(context.config.encryption, SECRET_PURPOSE, secret),
        createdAt: new Date(context.now()),
      })
      .returning({ id: webhookEndpoints.id });
    await recordAudit(tx, account, {
      entityType: 'webhook_endpoint',
      entityId: row!.id,
      action: 'webhook_endpoint_created',
      changes: { url: { from: null, to: input.url }, events: { from: null, to: input.events } },
    });
    return { id: row!.id, url: input.url, events: input.events, secret };
  });
  return { value, changed: [] };
}

export async function deleteWebhookEndpoint(
  context: CommandContext,
  account: Account,
  id: string,
): Promise<Outcome<void>> {
  await context.db.transaction(async (tx) => {
    const row = await ownEndpoint(tx, account.id, id);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
    await recordAudit(tx, account, {
      entityType: 'webhook_endpoint',
      entityId: row.id,
      action: 'webhook_endpoint_deleted',
      changes: { url: { from: row.url, to: null } },
    });
  });
  return { value: undefined, changed: [] };
}

/** A new secret, answered once; the old one keeps signing beside it for 24 hours. */
export async function rotateWebhookSecret(
  context: CommandContext,
  account: Account,
  id: string,
): Promise<Outcome<{ secret: string }>> {
  const secret = newSecret();
  await context.db.transaction(async (tx) => {
    const row = await ownEndpoint(tx, account.id, id);
    const now = context.now();
    await tx
      .update(webhookEndpoints)
      .set({
        secret: sealText(context.config.encryption, SECRET_PURPOSE, secret),
        previousSecret: row.secret,
        previousSecretUntil: new Date(now + WEBHOOK_OLD_SECRET_HOURS * HOUR),
        // A rotated endpoint is also one the seller has looked at: it sends again.
        disabledAt: null,
      })
      .where(eq(webhookEndpoints.id, row.id));
    await recordAudit(tx, account, {
      entityType: 'webhook_endpoint',
      entityId: row.id,
      action: 'webhook_secret_rotated',
      changes: {},
    });
  });
  return { value: { secret }, changed: [] };
}

/** The event body every delivery carries: its id, type, time and the object. */
const eventBody = (type: string, data: unknown, now: number) => ({
  id: `evt_${randomUUID().replaceAll('-', '')}`,
  type,
  timestamp: new Date(now).toISOString(),
  data,
});

/**
 * The outbox (decision 127): a delivery for each of the seller's endpoints that takes `type`,
 * written in the caller's transaction, so an event is sent if and only if its change commits.
 * `data` is only built when some endpoint wants it. A write helper of the commands that cause
 * events (the card's change).
 */
export async function queueWebhookEvent(
  tx: Db,
  userId: string,
  type: WebhookEvent,
  data: () => Promise<unknown>,
  now: number,
) {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.userId, userId),
        isNull(webhookEndpoints.disabledAt),
        sql`${type} = any(${webhookEndpoints.events})`,
      ),
    );
  if (endpoints.length === 0) return;
  const payload = eventBody(type, await data(), now);
  await tx.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({
      endpointId: endpoint.id,
      eventType: type,
      payload,
      nextAttemptAt: new Date(now),
      createdAt: new Date(now),
    })),
  );
}

/**
 * "Send test event": one delivery of `webhook.test` to this endpoint, whatever its events. One
 * statement: the delivery is written only if the endpoint is the seller's (a partner may send
 * many, and each is a write of its own).
 */
export async function sendTestEvent(
  context: CommandContext,
  account: Account,
  id: string,
): Promise<Outcome<WebhookDelivery>> {
  if (!isUuid(id)) throw notFound(NOT_FOUND);
  const now = context.now();
  const at = new Date(now).toISOString();
  const payload = eventBody(WEBHOOK_TEST_EVENT, { endpointId: id, test: true }, now);
  const { rows } = await context.db.execute<{ id: string }>(sql`
    insert into webhook_deliveries (endpoint_id, event_type, payload, next_attempt_at, created_at)
    select id, ${WEBHOOK_TEST_EVENT}, ${JSON.stringify(payload)}::jsonb, ${at}::timestamptz,
           ${at}::timestamptz
      from webhook_endpoints
     where id = ${id} and user_id = ${account.id}
    returning id`);
  if (!rows[0]) throw notFound(NOT_FOUND);
  const value: WebhookDelivery = {
    id: rows[0].id,
    eventType: WEBHOOK_TEST_EVENT,
    status: 'pending',
    attempts: 0,
    lastStatus: null,
    lastDurationMs: null,
    lastError: null,
    lastAttemptAt: null,
    nextAttemptAt: at,
    createdAt: at,
  };
  return { value, changed: [] };
}

/** Resend: the delivery goes again now, under the same webhook-id (its body unchanged). */
export async function resendDelivery(
  context: CommandContext,
  account: Account,
  endpointId: string,
  deliveryId: string,
): Promise<Outcome<WebhookDelivery>> {
  const value = await context.db.transaction(async (tx) => {
    const endpoint = await ownEndpoint(tx, account.id, endpointId);
    if (!isUuid(deliveryId)) throw notFound('Delivery not found');
    const now = new Date(context.now());
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now, createdAt: now })
      .where(
        and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)),
      )
      .returning();
    if (!row) throw notFound('Delivery not found');
    return toDelivery(row);
  });
  return { value, changed: [] };
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  payload: unknown;
  attempts: number;
  createdAt: Date;
}

/**
 * Claims up to `limit` due deliveries for this instance (SKIP LOCKED: each goes to one instance),
 * moving their next try a minute on, so one whose instance dies before recording is tried again.
 */
export async function claimDueDeliveries(
  context: CommandContext,
  limit: number,
): Promise<Outcome<ClaimedDelivery[]>> {
  const now = new Date(context.now());
  const value = await context.db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: webhookDeliveries.id,
        endpointId: webhookDeliveries.endpointId,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        previousSecret: webhookEndpoints.previousSecret,
        previousSecretUntil: webhookEndpoints.previousSecretUntil,
        payload: webhookDeliveries.payload,
        attempts: webhookDeliveries.attempts,
        createdAt: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          sql`${webhookDeliveries.nextAttemptAt} <= ${now}`,
          isNull(webhookEndpoints.disabledAt),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(limit)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(webhookDeliveries)
      .set({
        nextAttemptAt: new Date(now.getTime() + CLAIM_MS),
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastAttemptAt: now,
      })
      .where(sql`${webhookDeliveries.id} = any(${sql.param(due.map((d) => d.id))}::uuid[])`);
    return due.map((d) => ({ ...d, attempts: d.attempts + 1 }));
  });
  return { value, changed: [] };
}

/**
 * Tries' outcomes, written in one statement (the sender records each group of tries it sent at
 * once): a 2xx delivers; anything else waits its turn on the schedule, and after 3 days the
 * delivery is given up, its endpoint disabled and its owner emailed.
 */
export async function recordAttempts(
  context: CommandContext,
  tries: { delivery: ClaimedDelivery; attempt: Attempt }[],
): Promise<Outcome<void>> {
  const now = context.now();
  const outcomes = tries.map(({ delivery, attempt }) => {
    const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
    const next = now + retryDelay(delivery.attempts);
    const givenUp = !ok && next - delivery.createdAt.getTime() > WEBHOOK_GIVE_UP_HOURS * HOUR;
    return {
      delivery,
      attempt,
      givenUp,
      status: ok ? 'delivered' : givenUp ? 'failed' : 'pending',
      next: ok || givenUp ? null : new Date(next).toISOString(),
    };
  });
  if (outcomes.length === 0) return { value: undefined, changed: [] };
  const column = (pick: (o: (typeof outcomes)[number]) => unknown) => sql.param(outcomes.map(pick));
  await context.db.transaction(async (tx) => {
    await tx.execute(sql`
      update webhook_deliveries as d
         set status = o.status, next_attempt_at = o.next, last_status = o.last_status,
             last_duration_ms = o.duration, last_error = o.error
        from unnest(${column((o) => o.delivery.id)}::uuid[], ${column((o) => o.status)}::text[],
                    ${column((o) => o.next)}::timestamptz[],
                    ${column((o) => o.attempt.status)}::int[],
                    ${column((o) => o.attempt.durationMs)}::int[],
                    ${column((o) => o.attempt.error)}::text[])
             as o(id, status, next, last_status, duration, error)
       where d.id = o.id`);
    for (const { delivery } of outcomes.filter((o) => o.givenUp)) {
      await disableEndpoint(context, tx, delivery.endpointId, now);
    }
  });
  return { value: undefined, changed: [] };
}

/** An endpoint given up on: disabled, and its owner emailed (once). */
async function disableEndpoint(context: CommandContext, tx: Db, endpointId: string, now: number) {
  const [disabled] = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: new Date(now) })
    .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)))
    .returning({ userId: webhookEndpoints.userId, url: webhookEndpoints.url });
  if (!disabled) return;
  const [owner] = await tx
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, disabled.userId));
  if (owner) {
    await queueMail(tx, now, owner.email, 'webhook-endpoint-disabled', {
      firstName: owner.firstName,
      url: disabled.url,
      profileUrl: `${context.config.appUrl}/profile`,
    });
  }
}
