import { and, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Account, Principal } from '../../common/account';
import { recordAudit } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';
import { notFound } from '../../common/http-error';
import { expiryOf, type NewSession, SESSION_LIMITS } from '../../common/session-cache';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';

/**
 * A new session, under a new id; the one the browser had before (`replacing`), if any, ends in the
 * same transaction (session fixation). Answers when it was made.
 */
export async function createSession(
  context: CommandContext,
  session: NewSession,
  replacing?: string,
): Promise<Outcome<number>> {
  const now = context.now();
  const kind = session.account?.kind ?? 'pending';
  await context.db.transaction(async (tx) => {
    if (replacing) await tx.delete(sessions).where(eq(sessions.sid, replacing));
    await tx.insert(sessions).values({
      sid: session.sid,
      sess: session.data,
      expire: new Date(expiryOf(kind, now, now)),
      accountKind: session.account?.kind ?? null,
      accountId: session.account?.id ?? null,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
    });
  });
  return { value: now, changed: replacing ? [{ sessionsEnded: [replacing] }] : [] };
}

const limitBy = (column: 'idleMs' | 'absoluteMs') =>
  sql.raw(
    `case account_kind when 'user' then ${SESSION_LIMITS.user[column]} when 'admin' then ${SESSION_LIMITS.admin[column]} else ${SESSION_LIMITS.pending[column]} end`,
  );

/**
 * Renews the idle expiry (within the absolute one) of every session used since the last renewal,
 * from its last use (`seen`: session id → ms), in one statement (decision 075); never moved back
 * (another instance may have renewed it from a later use). Each use was of a session alive then; a
 * session that is gone has ended, and is not found. Answers the sessions still there.
 */
export async function renewSessions(
  context: CommandContext,
  seen: Map<string, number>,
): Promise<Outcome<Set<string>>> {
  const renewed = await context.db
    .update(sessions)
    .set({
      lastSeenAt: sql`greatest(sessions.last_seen_at, v.seen)`,
      expire: sql`greatest(sessions.expire, least(
        v.seen + (${limitBy('idleMs')}) * interval '1 millisecond',
        sessions.created_at + (${limitBy('absoluteMs')}) * interval '1 millisecond'))`,
    })
    .from(
      sql`unnest(${sql.placeholder('sids')}::text[], ${sql.placeholder('seen')}::timestamptz[]) as v(sid, seen)`,
    )
    .where(sql`sessions.sid = v.sid`)
    .returning({ sid: sessions.sid })
    .prepare('cardbridge-touch-sessions')
    .execute({ sids: [...seen.keys()], seen: [...seen.values()].map((at) => new Date(at)) });
  return { value: new Set(renewed.map((row) => row.sid)), changed: [] };
}

/**
 * Ends sessions by id (a sign-out, a session found expired or whose account is gone): every
 * instance refuses their cookies once it committed. Answers how many rows went.
 */
export async function endSessions(
  context: CommandContext,
  sids: string[],
): Promise<Outcome<number>> {
  if (sids.length === 0) return { value: 0, changed: [] };
  const ended = await context.db
    .delete(sessions)
    .where(inArray(sessions.sid, sids))
    .returning({ sid: sessions.sid });
  return { value: ended.length, changed: [{ sessionsEnded: sids }] };
}

/** Sessions past their expiry (swept hourly); every instance already refuses them by its clock. */
export async function deleteExpiredSessions(context: CommandContext): Promise<Outcome<number>> {
  const removed = await context.db
    .delete(sessions)
    .where(lt(sessions.expire, new Date(context.now())))
    .returning({ sid: sessions.sid });
  return { value: removed.length, changed: [] };
}

/**
 * The session's owner gave their password (or a code) again: payment-method changes are open to
 * it for 10 minutes from `now` (decision 072). Kept in the session's row, read by every instance.
 */
export async function markSessionFresh(
  context: CommandContext,
  sid: string,
): Promise<Outcome<number>> {
  const now = context.now();
  await context.db
    .update(sessions)
    .set({
      sess: sql`(coalesce(${sessions.sess}::jsonb, '{}'::jsonb) || jsonb_build_object('reauthAt', ${now}::bigint))::json`,
    })
    .where(eq(sessions.sid, sid));
  return { value: now, changed: [] };
}

/** The sessions of an account: signed in, or waiting for their second factor after its password. */
const ofAccount = (account: Principal) =>
  or(
    and(eq(sessions.accountKind, account.kind), eq(sessions.accountId, account.id)),
    and(
      isNull(sessions.accountKind),
      sql`${sessions.sess}->'pendingAccount'->>'kind' = ${account.kind}`,
      sql`${sessions.sess}->'pendingAccount'->>'id' = ${account.id}`,
    ),
  );

/**
 * Deletes every session of an account, those still waiting for the second factor included, but
 * for `exceptSid` (the one making the change), and answers their ids: inside a command, whose
 * `sessionsEnded` change tells every instance once it committed.
 */
export async function deleteAccountSessions(
  db: Db,
  account: Principal,
  exceptSid?: string,
): Promise<string[]> {
  const ended = await db
    .delete(sessions)
    .where(and(ofAccount(account), exceptSid ? ne(sessions.sid, exceptSid) : undefined))
    .returning({ sid: sessions.sid });
  return ended.map((r) => r.sid);
}

/**
 * The account ends one of its sessions, named by its public id (another browser, or this one: then
 * it is signing out). 404 when the account has no such session. Answers the session's id.
 */
export async function endAccountSession(
  context: CommandContext,
  account: Principal,
  publicId: string,
): Promise<Outcome<string>> {
  const [ended] = await context.db
    .delete(sessions)
    .where(
      and(
        eq(sessions.publicId, publicId),
        eq(sessions.accountKind, account.kind),
        eq(sessions.accountId, account.id),
      ),
    )
    .returning({ sid: sessions.sid });
  if (!ended) throw notFound('Session not found');
  return { value: ended.sid, changed: [{ sessionsEnded: [ended.sid] }] };
}

/** The account ends every session but `keepSid` (the one asking); answers how many ended. */
export async function endOtherSessions(
  context: CommandContext,
  account: Principal,
  keepSid: string,
): Promise<Outcome<number>> {
  const ended = await deleteAccountSessions(context.db, account, keepSid);
  return { value: ended.length, changed: [{ sessionsEnded: ended }] };
}

/**
 * Staff end every session of a customer (a stolen phone, a suspected takeover), audited in the
 * same transaction. Answers how many ended.
 */
export async function endCustomerSessions(
  context: CommandContext,
  actor: Account,
  customerId: string,
): Promise<Outcome<number>> {
  return context.db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, customerId));
    if (!user) throw notFound('User not found');
    const ended = await deleteAccountSessions(tx, { kind: 'user', id: customerId });
    await recordAudit(tx, actor, {
      entityType: 'user',
      entityId: customerId,
      action: 'end_sessions',
      changes: { sessions: { from: ended.length, to: 0 } },
    });
    return { value: ended.length, changed: [{ sessionsEnded: ended }] };
  });
}
