import { and, desc, eq } from 'drizzle-orm';
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../../shared/partner-api';
import type { Db } from '../../db/client';
import { users, webhookDeliveries, webhookEndpoints } from '../../db/schema';

export const toDelivery = (row: typeof webhookDeliveries.$inferSelect): WebhookDelivery => ({
  id: row.id,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  lastStatus: row.lastStatus,
  lastDurationMs: row.lastDurationMs,
  lastError: row.lastError,
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** The seller's endpoints, oldest first; never their secrets. */
export async function listWebhookEndpoints(db: Db, userId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    createdAt: row.createdAt.toISOString(),
    disabledAt: row.disabledAt?.toISOString() ?? null,
  }));
}

/** An endpoint's delivery log, newest first (the last 100); null when it is not the seller's. */
export async function deliveriesOf(
  db: Db,
  userId: string,
  endpointId: string,
): Promise<WebhookDelivery[] | null> {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)));
  if (!endpoint) return null;
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(100);
  return rows.map(toDelivery);
}

/** The seller's verification level as it is now (a session's copy may be older). */
export async function verificationLevelOf(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ level: users.verificationLevel })
    .from(users)
    .where(eq(users.id, userId));
  return row?.level ?? 0;
}
