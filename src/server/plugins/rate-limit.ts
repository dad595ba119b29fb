import { createHash } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import { lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { HttpError } from '../common/http-error';
import type { Limits } from '../config';
import type { Database } from '../db/client';
import { rateLimits } from '../db/schema';
import { accountOf } from './auth';

export interface Count {
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}
type Callback = (error: Error | null, result?: Count) => void;

export const MINUTE = 60 * 1000;
export const HOUR = 60 * MINUTE;

const hashed = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * The network a client address counts as for every per-address limit (decision 021): an IPv4
 * address is itself (an IPv4-mapped IPv6 address too); an IPv6 address counts as its /64, the
 * smallest block one subscriber is routinely given, so rotating within it buys nothing.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/** The request's client network (`request.ip` as TRUST_PROXY resolves it, as a /64 for IPv6). */
export const networkOf = (request: FastifyRequest) => clientNetwork(request.ip);

/**
 * Fixed-window counters in the `rate_limits` table, shared by every instance and kept across
 * restarts; one statement per count. It is the store of `@fastify/rate-limit` (incr, read,
 * child) and is also used directly where only failures count (sign-in, see auth/throttle.ts).
 */
export class DatabaseCounters {
  constructor(
    private readonly database: Database,
    private readonly now: () => number,
  ) {}

  /** Counts one more in `key`'s window (a new window when the last one ended). */
  async hit(key: string, windowMs: number): Promise<Count> {
    const now = new Date(this.now());
    const { rows } = await this.database.pool.query<{ count: number; reset_at: Date }>({
      name: 'cardbridge-rate-limit-hit',
      text: `insert into rate_limits (key, count, reset_at)
             values ($1, 1, $2::timestamptz + $3 * interval '1 millisecond')
             on conflict (key) do update set
               count = case when rate_limits.reset_at <= $2 then 1 else rate_limits.count + 1 end,
               reset_at = case when rate_limits.reset_at <= $2 then excluded.reset_at
                               else rate_limits.reset_at end
             returning count, reset_at`,
      values: [hashed(key), now, windowMs],
    });
    return { current: rows[0]!.count, ttl: rows[0]!.reset_at.getTime() - now.getTime() };
  }

  /**
   * Gives back one count of `key`'s current window (never below 0): an attempt counted before it
   * was checked that turned out not to be one that the limit counts (a right password).
   */
  async release(key: string): Promise<void> {
    await this.database.pool.query({
      name: 'cardbridge-rate-limit-release',
      text: `update rate_limits set count = greatest(count - 1, 0)
             where key = $1 and reset_at > $2`,
      values: [hashed(key), new Date(this.now())],
    });
  }

  /** How many `key`'s current window holds, without counting. */
  async peek(key: string): Promise<Count> {
    const now = new Date(this.now());
    const { rows } = await this.database.pool.query<{ count: number; reset_at: Date }>({
      name: 'cardbridge-rate-limit-peek',
      text: 'select count, reset_at from rate_limits where key = $1 and reset_at > $2',
      values: [hashed(key), now],
    });
    const row = rows[0];
    return row
      ? { current: row.count, ttl: row.reset_at.getTime() - now.getTime() }
      : { current: 0, ttl: 0 };
  }

  /** Windows that ended (swept hourly). */
  async deleteExpired() {
    const removed = await this.database.db
      .delete(rateLimits)
      .where(lt(rateLimits.resetAt, new Date(this.now())))
      .returning({ key: rateLimits.key });
    return removed.length;
  }

  // The store contract of @fastify/rate-limit.
  incr(key: string, callback: Callback, timeWindow: number) {
    this.hit(key, timeWindow).then((count) => callback(null, count), callback);
  }
  read(key: string, callback: Callback) {
    this.peek(key).then((count) => callback(null, count), callback);
  }
  child() {
    return this;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    counters: DatabaseCounters;
  }
}

/** "in 12 minutes", "in 40 seconds": how long a refused client should wait. */
export function waitText(ttlMs: number) {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A 429 with Retry-After and a message that says what was too much and how long to wait. */
export function tooMany(
  reply: { header(name: string, value: string): unknown },
  ttlMs: number,
  what: string,
) {
  reply.header('Retry-After', String(Math.max(1, Math.ceil(ttlMs / 1000))));
  return new HttpError(429, `${what} Try again in ${waitText(ttlMs)}.`);
}

/**
 * An attempt at a secret (a password, a code), counted before it is checked (decision 004): the
 * count goes up and is read in one statement, so attempts sent at the same moment each see their
 * own number and only the first `max` in the window are heard; the rest get 429 unheard. Answers
 * the function that gives the count back, for an attempt that succeeded (only failures count).
 */
export async function countAttempt(
  counters: DatabaseCounters,
  reply: { header(name: string, value: string): unknown },
  attempt: { key: string; max: number; windowMs: number; refusal: string },
): Promise<() => Promise<void>> {
  const count = await counters.hit(attempt.key, attempt.windowMs);
  if (count.current > attempt.max) throw tooMany(reply, count.ttl, attempt.refusal);
  return () => counters.release(attempt.key);
}

export async function registerRateLimits(app: FastifyInstance) {
  const counters = new DatabaseCounters(app.database, app.now);
  app.decorate('counters', counters);
  await app.register(fastifyRateLimit, {
    global: false,
    store: class {
      constructor() {
        // biome-ignore lint/correctness/noConstructorReturn: the plugin builds its store with `new`.
        return counters;
      }
    } as never,
    // Retry-After on refusals only; no X-RateLimit-* headers on every answer.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
  });
}

interface RouteLimit {
  /** Which setting of `config.limits` gives the count. */
  max: keyof Limits;
  windowMs: number;
  /** Counted for each signed-in account, or each client network (an IPv4 address, an IPv6 /64). */
  per: 'account' | 'network';
  /** What a refusal says, before how long to wait. */
  message: string;
  /** Upload endpoints carry the message in `error` too (PRODUCT.md). */
  uploadEndpoint?: boolean;
}

/**
 * Every route limit in one table (docs/decisions/021). Card images and chat attachments share
 * `upload`; the password-reset form shares the sign-up setting.
 */
const ROUTE_LIMITS = {
  signup: {
    max: 'signupsPerAddress',
    windowMs: HOUR,
    per: 'network',
    message: 'Too many sign-ups from your network.',
  },
  'password-forgot': {
    max: 'signupsPerAddress',
    windowMs: HOUR,
    per: 'network',
    message: 'Too many password reset requests from your network.',
  },
  upload: {
    max: 'uploadsPerHour',
    windowMs: HOUR,
    per: 'account',
    message: 'You have uploaded many files in the last hour.',
    uploadEndpoint: true,
  },
  chat: {
    max: 'chatMessagesPerMinute',
    windowMs: MINUTE,
    per: 'account',
    message: 'You are sending messages too fast.',
  },
  ticket: {
    max: 'ticketsPerHour',
    windowMs: HOUR,
    per: 'account',
    message: 'You have filed many tickets in the last hour; we will answer those first.',
  },
  'ticket-reply': {
    max: 'ticketRepliesPerHour',
    windowMs: HOUR,
    per: 'account',
    message: 'You have sent many replies in the last hour; we will answer those first.',
  },
} satisfies Record<string, RouteLimit>;

/**
 * A route's `config.rateLimit`: the named limit of ROUTE_LIMITS with this instance's counts,
 * refused with 429, Retry-After and its message ending in how long to wait.
 */
export function limit(name: keyof typeof ROUTE_LIMITS, limits: Limits) {
  const rule: RouteLimit = ROUTE_LIMITS[name];
  const key =
    rule.per === 'account' ? (request: FastifyRequest) => accountOf(request).id : networkOf;
  return {
    max: limits[rule.max],
    timeWindow: rule.windowMs,
    // After the route's guards, so the key can be the signed-in account.
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `${name}:${key(request)}`,
    errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) => {
      const text = `${rule.message} Try again in ${waitText(context.ttl)}.`;
      return new HttpError(429, text, undefined, rule.uploadEndpoint ? { error: text } : undefined);
    },
  };
}
