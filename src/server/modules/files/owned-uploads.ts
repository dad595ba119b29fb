import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';

/**
 * Which of `keys` name uploads of `kind` that this customer sent and that are still stored: what
 * a verification or a ticket may refer to (anyone else's file, or one of another kind, is not).
 */
export async function ownedUploadKeys(
  db: Db,
  userId: string,
  kind: 'verification' | 'chat',
  keys: string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(
      and(
        inArray(uploads.key, keys),
        eq(uploads.kind, kind),
        eq(uploads.ownerUserId, userId),
        isNull(uploads.removedAt),
      ),
    );
  return new Set(rows.map((row) => row.key));
}
