import fastifyCookie from '@fastify/cookie';
import fastifySession, { type SessionStore } from '@fastify/session';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, Session } from 'fastify';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';

export const SESSION_COOKIE = 'cb.sid';
/** A session ends after this long without a request (idle expiry). */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** An active session's expiry is pushed forward at most this often, not on every poll. */
export const SESSION_TOUCH_MS = 15 * 60 * 1000;

export interface Principal {
  kind: 'user' | 'admin';
  id: string;
}

declare module 'fastify' {
  interface Session {
    principal?: Principal;
    touchedAt?: number;
  }
}

type Callback = (err?: unknown) => void;

/** The spec's sessions table (sid, sess, expire) as a store for @fastify/session. */
export class DbSessionStore implements SessionStore {
  constructor(private readonly db: Db) {}

  set(sid: string, session: { cookie: { expires?: Date | null } }, callback: Callback) {
    const expire = session.cookie.expires ?? new Date(Date.now() + SESSION_IDLE_MS);
    this.db
      .insert(sessions)
      .values({ sid, sess: session, expire })
      .onConflictDoUpdate({ target: sessions.sid, set: { sess: session, expire } })
      .then(() => callback(), callback);
  }

  get(sid: string, callback: (err: unknown, session?: Session | null) => void) {
    this.db
      .select({ sess: sessions.sess })
      .from(sessions)
      .where(and(eq(sessions.sid, sid), gt(sessions.expire, sql`now()`)))
      .then(([row]) => callback(null, (row?.sess as Session | undefined) ?? null), callback);
  }

  destroy(sid: string, callback: Callback) {
    this.db
      .delete(sessions)
      .where(eq(sessions.sid, sid))
      .then(() => callback(), callback);
  }
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const removed = await db
    .delete(sessions)
    .where(lt(sessions.expire, sql`now()`))
    .returning({ sid: sessions.sid });
  return removed.length;
}

export async function registerSessions(app: FastifyInstance, db: Db, secret: string) {
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret,
    cookieName: SESSION_COOKIE,
    store: new DbSessionStore(db),
    // No row for anonymous visitors, and no write unless the session changed.
    saveUninitialized: false,
    rolling: false,
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      maxAge: SESSION_IDLE_MS,
    },
  });

  // Sliding idle expiry: a signed-in session is re-saved (new expiry) at most every 15 minutes.
  app.addHook('preHandler', async (request) => {
    const session = request.session;
    if (!session?.principal) return;
    const now = Date.now();
    if (!session.touchedAt || now - session.touchedAt > SESSION_TOUCH_MS) {
      session.touchedAt = now;
    }
  });
}
