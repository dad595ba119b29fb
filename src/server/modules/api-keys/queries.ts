import { and, desc, eq, isNull } from 'drizzle-orm';
import type { ApiKey, ApiKeyScope } from '../../../shared/partner-api';
import type { AccountRow } from '../../common/account';
import type { Db } from '../../db/client';
import { apiKeys, users } from '../../db/schema';

type KeyRow = typeof apiKeys.$inferSelect;

export const toApiKey = (row: KeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  last4: row.last4,
  scopes: row.scopes as ApiKeyScope[],
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  lastUsedIp: row.lastUsedIp,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/** A seller's keys, newest first, revoked ones too (their row says when). */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(toApiKey);
}

/**
 * The key with this hash that is not revoked, and its seller (not deleted): one indexed read per
 * request, nothing kept in memory, so a revocation is seen by every instance at its next request.
 */
export async function findLiveKey(db: Db, keyHash: string) {
  const [row] = await db
    .select({
      key: {
        id: apiKeys.id,
        scopes: apiKeys.scopes,
        expiresAt: apiKeys.expiresAt,
        lastUsedAt: apiKeys.lastUsedAt,
        lastUsedIp: apiKeys.lastUsedIp,
      },
      user: {
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        createdAt: users.createdAt,
        profileImageUrl: users.profileImageUrl,
        isAdmin: users.isAdmin,
        emailVerifiedAt: users.emailVerifiedAt,
        emailNotifications: users.emailNotifications,
        standing: users.standing,
        verificationLevel: users.verificationLevel,
      },
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt), isNull(users.deletedAt)));
  return row as { key: NonNullable<typeof row>['key']; user: AccountRow } | undefined;
}
