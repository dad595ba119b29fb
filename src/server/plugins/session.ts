import { createHash, randomBytes } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { sign, unsign } from 'cookie-signature';
import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Account, type Principal, toAccount } from '../common/account';
import type { CachedSession, SessionData } from '../common/session-cache';
import { BatchLoader } from '../db/batch';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';

export const SESSION_COOKIE = 'cb.sid';

type SessionKind = Principal['kind'] | 'pending';

/**
 * How long a session lives (docs/decisions/003): without a request (idle), and at most (absolute).
 * A staff sign-in waiting for its second factor gets a few minutes.
 */
export const SESSION_LIMITS: Record<SessionKind, { idleMs: number; absoluteMs: number }> = {
  user: { idleMs: 24 * 60 * 60 * 1000, absoluteMs: 30 * 24 * 60 * 60 * 1000 },
  admin: { idleMs: 30 * 60 * 1000, absoluteMs: 12 * 60 * 60 * 1000 },
  pending: { idleMs: 10 * 60 * 1000, absoluteMs: 10 * 60 * 1000 },
};

/**
 * A signed-in session writes (and re-reads) its row at most this often: not on every poll. It is a
 * tenth of the idle limit, so another instance never finds the row expired much before it is.
 */
const touchEvery = (kind: SessionKind) =>
  Math.min(15 * 60 * 1000, SESSION_LIMITS[kind].idleMs / 10);

const kindOf = (session: { account: Account | null }): SessionKind =>
  session.account?.kind ?? 'pending';

declare module 'fastify' {
  interface FastifyInstance {
    /** The time, in ms; tests move it. */
    now: () => number;
  }
  interface FastifyRequest {
    /** The request's session once `loadSession` has run: null when there is none. */
    session: CachedSession | null | undefined;
  }
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The newest a session may expire: the idle limit from its last request, within its lifetime. */
function expiryOf(kind: SessionKind, createdAt: number, lastSeenAt: number) {
  const limits = SESSION_LIMITS[kind];
  return Math.min(lastSeenAt + limits.idleMs, createdAt + limits.absoluteMs);
}

const limitBy = (column: 'idleMs' | 'absoluteMs') =>
  `case account_kind when 'user' then ${SESSION_LIMITS.user[column]} when 'admin' then ${SESSION_LIMITS.admin[column]} else ${SESSION_LIMITS.pending[column]} end`;

/** A session with its account, in one row (the columns SessionRow names). */
const SESSION_WITH_ACCOUNT = `
    select s.sid, s.sess, s.account_kind, s.created_at, s.expire,
           u.id as user_id, u.email as user_email, u.first_name as user_first_name,
           u.last_name as user_last_name, u.created_at as user_created_at,
           u.profile_image_url as user_profile_image_url, u.is_admin as user_is_admin,
           u.email_verified_at as user_email_verified_at,
           u.email_notifications as user_email_notifications,
           u.standing as user_standing, u.verification_level as user_verification_level,
           a.id as admin_id, a.email as admin_email, a.first_name as admin_first_name,
           a.last_name as admin_last_name, a.created_at as admin_created_at,
           a.role as admin_role, a.active as admin_active
      from sessions s
      left join users u on s.account_kind = 'user' and u.id = s.account_id
      left join admins a on s.account_kind = 'admin' and a.id = s.account_id`;

/**
 * Sessions not in memory are read, not written: every session asked for while the previous read
 * ran goes out in one statement (db/batch.ts), so a restart's wave of first polls costs a few
 * reads instead of one write per request. Whether it has expired is judged with this process's
 * renewals not yet written (`readSession`).
 */
const READ_SESSIONS = {
  name: 'cardbridge-read-sessions',
  text: `${SESSION_WITH_ACCOUNT} where s.sid = any($1::text[])`,
};

/**
 * The idle expiry is renewed (within the absolute one) from each session's last use, for every
 * session used since the last renewal, in one statement per interval; never moved back (another
 * instance may have renewed it from a later use). Each use was of a session alive then (checked
 * before it was answered); a session that is gone has ended, and is not found.
 */
const TOUCH_SESSIONS = {
  name: 'cardbridge-touch-sessions',
  text: `
    update sessions s
       set last_seen_at = greatest(s.last_seen_at, v.seen),
           expire = greatest(s.expire, least(
             v.seen + (${limitBy('idleMs')}) * interval '1 millisecond',
             s.created_at + (${limitBy('absoluteMs')}) * interval '1 millisecond'))
      from unnest($1::text[], $2::timestamptz[]) as v(sid, seen)
     where s.sid = v.sid
    returning s.sid`,
};

/** How often the sessions used meanwhile have their expiry renewed. */
export const TOUCH_INTERVAL_MS = 1000;

interface SessionRow {
  sid: string;
  sess: SessionData | null;
  account_kind: Principal['kind'] | null;
  created_at: Date;
  expire: Date;
  user_id: string | null;
  user_email: string;
  user_first_name: string | null;
  user_last_name: string | null;
  user_created_at: Date;
  user_profile_image_url: string | null;
  user_is_admin: boolean | null;
  user_email_verified_at: Date | null;
  user_email_notifications: boolean;
  user_standing: string;
  user_verification_level: number;
  admin_id: string | null;
  admin_email: string;
  admin_first_name: string | null;
  admin_last_name: string | null;
  admin_created_at: Date;
  admin_role: string;
  admin_active: boolean;
}

function accountOfRow(row: SessionRow): Account | null {
  if (row.account_kind === 'user' && row.user_id) {
    return toAccount('user', {
      id: row.user_id,
      email: row.user_email,
      firstName: row.user_first_name,
      lastName: row.user_last_name,
      createdAt: row.user_created_at,
      profileImageUrl: row.user_profile_image_url,
      isAdmin: row.user_is_admin === true,
      emailVerifiedAt: row.user_email_verified_at,
      emailNotifications: row.user_email_notifications,
      standing: row.user_standing,
      verificationLevel: row.user_verification_level,
    });
  }
  // A deactivated staff member's session leads nowhere (decision 077).
  if (row.account_kind === 'admin' && row.admin_id && row.admin_active !== false) {
    return toAccount('admin', {
      id: row.admin_id,
      email: row.admin_email,
      firstName: row.admin_first_name,
      lastName: row.admin_last_name,
      createdAt: row.admin_created_at,
      role: row.admin_role,
    });
  }
  return null;
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const removed = await db
    .delete(sessions)
    .where(lt(sessions.expire, sql`now()`))
    .returning({ sid: sessions.sid });
  return removed.length;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The session cookie's signature: new cookies with the first secret, any one accepted. */
    cookieSecrets: string[];
    /** Sessions not in memory, read many to a statement. */
    sessionReads: BatchLoader<string, SessionRow | null>;
    /** Sessions whose expiry is due for renewal, renewed once per interval. */
    sessionTouches: {
      add(sid: string, seenAt: number): void;
      pending(sid: string): number | undefined;
      flush(): Promise<void>;
    };
  }
}

export async function registerSessions(app: FastifyInstance, secret: string | string[]) {
  app.decorate('cookieSecrets', [secret].flat());
  app.decorateRequest('session', undefined);
  app.decorate(
    'sessionReads',
    new BatchLoader<string, SessionRow | null>(
      async (sids) => {
        const { rows } = await app.database.pool.query<SessionRow>({
          ...READ_SESSIONS,
          values: [sids],
        });
        return new Map(rows.map((row) => [row.sid, row]));
      },
      () => null,
    ),
  );
  const touches = new SessionTouches(app);
  app.decorate('sessionTouches', touches);
  app.addHook('onClose', () => touches.stop());
}

/**
 * Sessions used since the last renewal, with when each was last used; each interval renews them
 * all in one statement.
 */
class SessionTouches {
  private due = new Map<string, number>();
  /** Renewals being written: still the last use of their sessions until the write commits. */
  private writing = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly app: FastifyInstance) {
    this.timer = setInterval(() => void this.flush(), TOUCH_INTERVAL_MS);
    this.timer.unref();
  }

  add(sid: string, seenAt: number) {
    this.due.set(sid, Math.max(seenAt, this.due.get(sid) ?? 0));
  }

  /** When the session was last used, if its renewal is not written yet. */
  pending(sid: string): number | undefined {
    return this.due.get(sid) ?? this.writing.get(sid);
  }

  async flush() {
    if (this.due.size === 0) return;
    const due = this.due;
    this.due = new Map();
    for (const [sid, seen] of due) this.writing.set(sid, seen);
    const sids = [...due.keys()];
    try {
      const { rows } = await this.app.database.pool.query<{ sid: string }>({
        ...TOUCH_SESSIONS,
        values: [sids, [...due.values()].map((seen) => new Date(seen))],
      });
      // Ended or expired meanwhile: dropped from memory; the next request reads it, and finds none.
      const alive = new Set(rows.map((row) => row.sid));
      this.app.live.sessions.forgetSids(sids.filter((sid) => !alive.has(sid)));
    } catch (error) {
      // Tried again at the next interval (the database may be restarting).
      for (const [sid, seen] of due) this.add(sid, seen);
      this.app.log.warn({ err: error }, 'could not renew sessions');
    } finally {
      for (const [sid, seen] of due) if (this.writing.get(sid) === seen) this.writing.delete(sid);
    }
  }

  async stop() {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** The signed token in the request's session cookie. Parsed only by requests that need it. */
function cookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header?.includes(SESSION_COOKIE)) return undefined;
  return parseCookies(header)[SESSION_COOKIE] || undefined;
}

const signToken = (app: FastifyInstance, token: string) => sign(token, app.cookieSecrets[0]!);

/** The token of a signed cookie value, or null when no secret signed it. */
function unsignToken(app: FastifyInstance, cookie: string): string | null {
  for (const secret of app.cookieSecrets) {
    const token = unsign(cookie, secret);
    if (token) return token;
  }
  return null;
}

/**
 * The request's session, from memory when this process has seen it: no query for a poll. Misses
 * and renewals read the row and the account in one statement; a cookie that is forged, expired,
 * ended or whose account is gone yields null.
 */
export async function loadSession(request: FastifyRequest): Promise<CachedSession | null> {
  if (request.session !== undefined) return request.session;
  const app = request.server;
  const cache = app.live.sessions;
  const cookie = cookieOf(request);
  let session: CachedSession | null = null;
  if (cookie && !cache.isDead(cookie)) {
    const now = app.now();
    const cached = app.live.coherent ? cache.get(cookie) : undefined;
    if (cached && now - cached.touchedAt < touchEvery(kindOf(cached))) {
      if (expiryOf(kindOf(cached), cached.createdAt, cached.lastSeenAt) > now) {
        cached.lastSeenAt = now;
        session = cached;
      } else {
        cache.markDead(cookie);
      }
    } else {
      // Not in memory, or due for renewal: read again (many to a statement), its expiry renewed
      // with the next batch.
      session = await cache.loadOnce(cookie, () => readSession(app, cookie, now));
    }
  }
  request.session = session;
  return session;
}

/**
 * Whether a session read from its row is alive at `now`: by the row's expiry, or, when this
 * process answered a request of it whose renewal is not written yet, by that last use.
 */
function aliveAt(app: FastifyInstance, row: SessionRow, now: number) {
  if (row.expire.getTime() > now) return true;
  const seen = app.sessionTouches.pending(row.sid);
  const kind: SessionKind = row.account_kind ?? 'pending';
  return seen !== undefined && expiryOf(kind, row.created_at.getTime(), seen) > now;
}

async function readSession(app: FastifyInstance, cookie: string, now: number) {
  const cache = app.live.sessions;
  const token = unsignToken(app, cookie);
  if (!token) {
    cache.markDead(cookie);
    return null;
  }
  const row = await app.sessionReads.load(sha256(token));
  const account = row ? accountOfRow(row) : null;
  if (!row || (row.account_kind && !account) || !aliveAt(app, row, now)) {
    // Expired, ended, or its account is gone: the cookie is dead for good.
    if (row) await app.db.delete(sessions).where(eq(sessions.sid, row.sid));
    cache.markDead(cookie);
    return null;
  }
  const entry: CachedSession = {
    sid: row.sid,
    cookie,
    account,
    data: row.sess ?? {},
    createdAt: row.created_at.getTime(),
    lastSeenAt: now,
    touchedAt: now,
  };
  // Read, not written: its expiry is renewed with the next batch.
  app.sessionTouches.add(row.sid, now);
  if (app.live.coherent) cache.set(entry);
  return entry;
}

function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  signed: string,
  kind: SessionKind,
) {
  reply.header(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, signed, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: Math.floor(SESSION_LIMITS[kind].absoluteMs / 1000),
    }),
  );
}

/**
 * A new session for `account` (or, with null, a staff sign-in waiting for its second factor),
 * always under a new id: the one the browser had before, if any, is ended (session fixation).
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  account: Account | null,
  data: SessionData = {},
): Promise<CachedSession> {
  const app = request.server;
  const previous = await loadSession(request);
  if (previous) await endSessionsById(app, [previous.sid]);
  const token = randomBytes(32).toString('base64url');
  const sid = sha256(token);
  const now = app.now();
  const kind: SessionKind = account?.kind ?? 'pending';
  const sess: SessionData = {
    ...data,
    userAgent: request.headers['user-agent']?.slice(0, 300),
    ip: request.ip,
  };
  await app.db.insert(sessions).values({
    sid,
    sess,
    expire: new Date(expiryOf(kind, now, now)),
    accountKind: account?.kind ?? null,
    accountId: account?.id ?? null,
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
  });
  const signed = signToken(app, token);
  setCookie(request, reply, signed, kind);
  const entry: CachedSession = {
    sid,
    cookie: signed,
    account,
    data: sess,
    createdAt: now,
    lastSeenAt: now,
    touchedAt: now,
  };
  if (app.live.coherent) app.live.sessions.set(entry);
  request.session = entry;
  return entry;
}

/** Signs the request's session out: the row goes, every instance refuses the cookie at once. */
export async function endSession(request: FastifyRequest, reply: FastifyReply) {
  const session = await loadSession(request);
  if (session) await endSessionsById(request.server, [session.sid]);
  request.session = null;
  clearSessionCookie(reply);
}

/** Tells the browser to drop the session cookie (its session is already gone). */
export function clearSessionCookie(reply: FastifyReply) {
  reply.header(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, '', { path: '/', expires: new Date(0) }),
  );
}

export async function endSessionsById(app: FastifyInstance, sids: string[]) {
  if (sids.length === 0) return;
  for (const sid of sids) await app.db.delete(sessions).where(eq(sessions.sid, sid));
  app.live.sessionsEnded(sids);
}

/** The sessions of an account: signed in, or waiting for their second factor after its password. */
export const ofAccount = (account: Principal) =>
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

/** Ends every session of an account at once, but for `exceptSid`; answers how many ended. */
export async function endAccountSessions(
  app: FastifyInstance,
  account: Principal,
  exceptSid?: string,
): Promise<number> {
  const sids = await deleteAccountSessions(app.db, account, exceptSid);
  app.live.sessionsEnded(sids);
  return sids.length;
}
