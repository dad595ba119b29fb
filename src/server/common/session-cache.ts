import type { Account, Principal } from './account';

export type SessionKind = Principal['kind'] | 'pending';

/**
 * How long a session lives (docs/decisions/003): without a request (idle), and at most (absolute).
 * A staff sign-in waiting for its second factor gets a few minutes.
 */
export const SESSION_LIMITS: Record<SessionKind, { idleMs: number; absoluteMs: number }> = {
  user: { idleMs: 24 * 60 * 60 * 1000, absoluteMs: 30 * 24 * 60 * 60 * 1000 },
  admin: { idleMs: 30 * 60 * 1000, absoluteMs: 12 * 60 * 60 * 1000 },
  pending: { idleMs: 10 * 60 * 1000, absoluteMs: 10 * 60 * 1000 },
};

/** The newest a session may expire: the idle limit from its last request, within its lifetime. */
export function expiryOf(kind: SessionKind, createdAt: number, lastSeenAt: number) {
  const limits = SESSION_LIMITS[kind];
  return Math.min(lastSeenAt + limits.idleMs, createdAt + limits.absoluteMs);
}

/**
 * A session's row as the sessions module reads it: `account` is null when the account is gone or
 * is a deactivated staff member's (decision 077), and `kind` null while a staff sign-in waits for
 * its second factor.
 */
export interface StoredSession {
  sid: string;
  data: SessionData;
  kind: Principal['kind'] | null;
  account: Account | null;
  createdAt: number;
  expire: number;
}

/** A session to store: `account` null for a sign-in waiting for its second factor. */
export interface NewSession {
  sid: string;
  data: SessionData;
  account: Principal | null;
}

/** What a signed-in request needs, kept in memory so that a poll reads no session or account row. */
export interface CachedSession {
  /** The SHA-256 of the cookie's token: the row's key, never the token itself. */
  sid: string;
  /** The signed cookie value this entry was found by. */
  cookie: string;
  /** Null while a staff sign-in waits for its second factor. */
  account: Account | null;
  data: SessionData;
  createdAt: number;
  lastSeenAt: number;
  /** When this process last re-read the row (and asked for its expiry to be renewed). */
  touchedAt: number;
}

/** The `sess` column: how the session was opened, and what it may wait for. */
export interface SessionData {
  userAgent?: string;
  ip?: string;
  /** A sign-in with staff rights that has passed the password but not yet the second factor. */
  pendingAccount?: { kind: 'user' | 'admin'; id: string };
  /**
   * When the password (or a second-factor code) was last given in this session, in ms: payment
   * method changes need it within the last 10 minutes (decision 072).
   */
  reauthAt?: number;
}

const MAX_SESSIONS = 200_000;
const MAX_DEAD = 50_000;

/**
 * Sessions by signed cookie value (a hit skips even the signature check), with indexes by session
 * id and by account so that a sign-out, a password change or a removed account ends them at once.
 * Cookies known to be dead are remembered too, so a replayed old cookie costs no query.
 */
export class SessionCache {
  private readonly byCookie = new Map<string, CachedSession>();
  private readonly bySid = new Map<string, CachedSession>();
  private readonly byAccount = new Map<string, Set<CachedSession>>();
  private readonly dead = new Set<string>();
  private readonly loading = new Map<string, Promise<CachedSession | null>>();

  get(cookie: string): CachedSession | undefined {
    return this.byCookie.get(cookie);
  }

  isDead(cookie: string): boolean {
    return this.dead.has(cookie);
  }

  markDead(cookie: string) {
    this.forget(this.byCookie.get(cookie));
    this.dead.add(cookie);
    if (this.dead.size > MAX_DEAD) this.dead.delete(this.dead.values().next().value!);
  }

  set(entry: CachedSession) {
    this.forget(this.bySid.get(entry.sid));
    this.byCookie.set(entry.cookie, entry);
    this.bySid.set(entry.sid, entry);
    const key = entry.account ? accountKey(entry.account) : null;
    if (key) {
      let set = this.byAccount.get(key);
      if (!set) {
        set = new Set();
        this.byAccount.set(key, set);
      }
      set.add(entry);
    }
    if (this.byCookie.size > MAX_SESSIONS) this.forget(this.byCookie.values().next().value);
  }

  /** Drops sessions from memory (they reload from the database on their next request). */
  forgetSids(sids: Iterable<string>) {
    for (const sid of sids) this.forget(this.bySid.get(sid));
  }

  /** Ended sessions: dropped, and their cookies refused without a query from now on. */
  endSids(sids: Iterable<string>) {
    for (const sid of sids) {
      const entry = this.bySid.get(sid);
      if (entry) this.markDead(entry.cookie);
    }
  }

  /** Drops every session of an account from memory: its account data changed. */
  forgetAccount(key: string) {
    for (const entry of [...(this.byAccount.get(key) ?? [])]) this.forget(entry);
  }

  sidsOf(key: string): string[] {
    return [...(this.byAccount.get(key) ?? [])].map((e) => e.sid);
  }

  /**
   * Reads a session not in memory once however many of its requests arrive together (a page's
   * polls after a restart): the first runs `read`, the others wait for its answer.
   */
  loadOnce(cookie: string, read: () => Promise<CachedSession | null>) {
    let pending = this.loading.get(cookie);
    if (!pending) {
      pending = read().finally(() => this.loading.delete(cookie));
      this.loading.set(cookie, pending);
    }
    return pending;
  }

  clear() {
    this.byCookie.clear();
    this.bySid.clear();
    this.byAccount.clear();
  }

  private forget(entry: CachedSession | undefined) {
    if (!entry) return;
    this.byCookie.delete(entry.cookie);
    if (this.bySid.get(entry.sid) === entry) this.bySid.delete(entry.sid);
    if (entry.account) {
      const key = accountKey(entry.account);
      const set = this.byAccount.get(key);
      set?.delete(entry);
      if (set?.size === 0) this.byAccount.delete(key);
    }
  }
}

/** Customers and staff live in two tables; their sessions are told apart by kind. */
export const accountKey = (account: { kind: string; id: string }) =>
  `${account.kind}:${account.id}`;
