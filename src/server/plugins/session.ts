import { createHash, randomBytes } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { sign, unsign } from 'cookie-signature';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../common/account';
import type { CommandContext, Outcome } from '../common/command';
import {
  type CachedSession,
  expiryOf,
  type NewSession,
  SESSION_LIMITS,
  type SessionData,
  type SessionKind,
  type StoredSession,
} from '../common/session-cache';
import { BatchLoader } from '../db/batch';
import type { Database, Db } from '../db/client';

export const SESSION_COOKIE = 'cb.sid';

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

/**
 * The session rows' reads and writes, which the sessions module owns (`modules/sessions`): app.ts
 * hands them over, since plugins import no module (decision 100). The writes are commands, run
 * through `app.run`, which publishes what they changed.
 */
export interface SessionStore {
  /** The sessions of `sids` that exist, by id, with their accounts: one statement. */
  read(database: Database, sids: string[]): Promise<Map<string, StoredSession>>;
  /** When the password was last given in the session (decision 072), from its row. */
  reauthAt(db: Db, sid: string): Promise<number | null>;
  create(
    context: CommandContext,
    session: NewSession,
    replacing?: string,
  ): Promise<Outcome<number>>;
  renew(context: CommandContext, seen: Map<string, number>): Promise<Outcome<Set<string>>>;
  end(context: CommandContext, sids: string[]): Promise<Outcome<number>>;
}

/** How often the sessions used meanwhile have their expiry renewed. */
export const TOUCH_INTERVAL_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The session cookie's signature: new cookies with the first secret, any one accepted. */
    cookieSecrets: string[];
    /** The session rows' reads and writes (modules/sessions). */
    sessionStore: SessionStore;
    /** Sessions not in memory, read many to a statement. */
    sessionReads: BatchLoader<string, StoredSession | null>;
    /** Sessions whose expiry is due for renewal, renewed once per interval. */
    sessionTouches: {
      add(sid: string, seenAt: number): void;
      pending(sid: string): number | undefined;
      flush(): Promise<void>;
    };
  }
}

export async function registerSessions(
  app: FastifyInstance,
  secret: string | string[],
  store: SessionStore,
) {
  app.decorate('cookieSecrets', [secret].flat());
  app.decorateRequest('session', undefined);
  app.decorate('sessionStore', store);
  app.decorate(
    'sessionReads',
    new BatchLoader<string, StoredSession | null>(
      (sids) => store.read(app.database, sids),
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
    try {
      const { app } = this;
      const alive = await app.run((context) => app.sessionStore.renew(context, due));
      // Ended or expired meanwhile: dropped from memory; the next request reads it, and finds none.
      app.live.sessions.forgetSids([...due.keys()].filter((sid) => !alive.has(sid)));
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
function aliveAt(app: FastifyInstance, row: StoredSession, now: number) {
  if (row.expire > now) return true;
  const seen = app.sessionTouches.pending(row.sid);
  return seen !== undefined && expiryOf(row.kind ?? 'pending', row.createdAt, seen) > now;
}

async function readSession(app: FastifyInstance, cookie: string, now: number) {
  const cache = app.live.sessions;
  const token = unsignToken(app, cookie);
  if (!token) {
    cache.markDead(cookie);
    return null;
  }
  const row = await app.sessionReads.load(sha256(token));
  if (!row || (row.kind && !row.account) || !aliveAt(app, row, now)) {
    // Expired, ended, or its account is gone: the cookie is dead for good.
    if (row) await app.run((context) => app.sessionStore.end(context, [row.sid]));
    cache.markDead(cookie);
    return null;
  }
  const entry: CachedSession = {
    sid: row.sid,
    cookie,
    account: row.account,
    data: row.data,
    createdAt: row.createdAt,
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
  const token = randomBytes(32).toString('base64url');
  const sid = sha256(token);
  const sess: SessionData = {
    ...data,
    userAgent: request.headers['user-agent']?.slice(0, 300),
    ip: request.ip,
  };
  const principal = account && { kind: account.kind, id: account.id };
  const now = await app.run((context) =>
    app.sessionStore.create(context, { sid, data: sess, account: principal }, previous?.sid),
  );
  const signed = signToken(app, token);
  setCookie(request, reply, signed, account?.kind ?? 'pending');
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
  const app = request.server;
  const session = await loadSession(request);
  if (session) await app.run((context) => app.sessionStore.end(context, [session.sid]));
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
