import { and, desc, eq, gt } from 'drizzle-orm';
import type { Principal } from '../../common/account';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema';

/** An account's sessions still alive, the most recently used first. */
export function accountSessions(db: Db, account: Principal, now: number) {
  return db
    .select({
      sid: sessions.sid,
      publicId: sessions.publicId,
      sess: sessions.sess,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.accountKind, account.kind),
        eq(sessions.accountId, account.id),
        gt(sessions.expire, new Date(now)),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

/** The id of the account's session whose public id is `publicId`, if it is theirs. */
export async function sessionIdOf(db: Db, account: Principal, publicId: string) {
  const [row] = await db
    .select({ sid: sessions.sid })
    .from(sessions)
    .where(
      and(
        eq(sessions.publicId, publicId),
        eq(sessions.accountKind, account.kind),
        eq(sessions.accountId, account.id),
      ),
    );
  return row?.sid;
}
