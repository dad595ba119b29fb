import { and, count, eq, gt, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import {
  API_KEY_LEVEL,
  type ApiKeyScope,
  type createApiKeySchema,
  MAX_API_KEYS,
  VERIFICATION_REQUIRED,
  VERIFICATION_REQUIRED_MESSAGE,
} from '../../../shared/partner-api';
import type { Account } from '../../common/account';
import { recordAudit } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { apiKeys, users } from '../../db/schema';
import { queueMail } from '../../mail/queue';
import { keyHashOf, newApiKey } from './keys';

const NOT_FOUND = 'API key not found';
const TOO_MANY = `You can have at most ${MAX_API_KEYS} active API keys. Revoke one first.`;

/**
 * A level-2 seller creates a key (issue 42): the key is answered this once and only its hash kept;
 * the seller is emailed, whatever their notification settings, as for a payee change.
 */
export async function createApiKey(
  context: CommandContext,
  account: Account,
  input: z.infer<typeof createApiKeySchema>,
): Promise<Outcome<{ id: string; key: string; last4: string; scopes: ApiKeyScope[] }>> {
  const now = context.now();
  if (input.expiresAt && Date.parse(input.expiresAt) <= now) {
    throw badRequest('expiresAt must be in the future', 'expiresAt');
  }
  const key = newApiKey();
  const value = await context.db.transaction(async (tx) => {
    // The seller's row locked: the level is read as it is now, and two creations count in turn.
    const [seller] = await tx
      .select({
        level: users.verificationLevel,
        email: users.email,
        firstName: users.firstName,
      })
      .from(users)
      .where(eq(users.id, account.id))
      .for('no key update');
    if (!seller) throw notFound('Account not found');
    if (seller.level < API_KEY_LEVEL) {
      throw new HttpError(403, VERIFICATION_REQUIRED_MESSAGE, undefined, {
        code: VERIFICATION_REQUIRED,
      });
    }
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.userId, account.id),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date(now))),
        ),
      );
    if ((active?.n ?? 0) >= MAX_API_KEYS) throw new HttpError(409, TOO_MANY);
    const last4 = key.slice(-4);
    const [row] = await tx
      .insert(apiKeys)
      .values({
        userId: account.id,
        name: input.name,
        keyHash: keyHashOf(key),
        last4,
        scopes: input.scopes,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        createdAt: new Date(now),
      })
      .returning({ id: apiKeys.id });
    await recordAudit(tx, account, {
      entityType: 'api_key',
      entityId: row!.id,
      action: 'api_key_created',
      changes: { name: { from: null, to: input.name }, scopes: { from: null, to: input.scopes } },
    });
    await queueMail(tx, now, seller.email, 'api-key-created', {
      firstName: seller.firstName,
      name: input.name,
      last4,
      scopes: input.scopes.join(', '),
      url: `${context.config.appUrl}/profile`,
    });
    return { id: row!.id, key, last4, scopes: input.scopes };
  });
  return { value, changed: [] };
}

/** Revokes one of the seller's keys at once: the next request with it, on any instance, is 401. */
export async function revokeApiKey(
  context: CommandContext,
  account: Account,
  id: string,
): Promise<Outcome<void>> {
  if (!isUuid(id)) throw notFound(NOT_FOUND);
  await context.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, account.id)))
      .for('update');
    if (!row) throw notFound(NOT_FOUND);
    if (row.revokedAt) return;
    await tx
      .update(apiKeys)
      .set({ revokedAt: new Date(context.now()) })
      .where(eq(apiKeys.id, id));
    await recordAudit(tx, account, {
      entityType: 'api_key',
      entityId: id,
      action: 'api_key_revoked',
      changes: { revokedAt: { from: null, to: new Date(context.now()).toISOString() } },
    });
  });
  return { value: undefined, changed: [] };
}

/** When and from where a key was last used (written at most once a minute per key and address). */
export async function touchApiKey(
  context: CommandContext,
  id: string,
  ip: string,
): Promise<Outcome<void>> {
  await context.db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(context.now()), lastUsedIp: ip.slice(0, 64) })
    .where(eq(apiKeys.id, id));
  return { value: undefined, changed: [] };
}
