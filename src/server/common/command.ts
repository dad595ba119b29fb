import type { LiveTopic } from '../../shared/live';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { ObjectStorage } from '../storage/object-storage';
import type { Principal } from './account';

/**
 * What a write needs, and no more: never the Fastify app (docs/architecture.md, "the shape of a
 * write"). The app itself has these four, so a route hands it over as it is.
 */
export interface CommandContext {
  db: Db;
  /** The time, in ms (tests move it). */
  now: () => number;
  config: AppConfig;
  storage: ObjectStorage;
}

/** The scope every staff account shares; a customer's scope is their id. */
export const STAFF = 'staff';
/** Answers that are the same for everyone (the rates): changed everywhere at once. */
export const PUBLIC = 'public';

/**
 * What a write changed: live topics for the scopes that see them (account ids, STAFF, PUBLIC), or
 * for every account at once; an account itself (its name, its address), which every session of it
 * held in memory reads again; or sessions that ended.
 */
export type Change =
  | { scopes: string[]; topics: LiveTopic[] }
  | { everywhere: LiveTopic[] }
  | { account: Principal }
  /** Sessions (by id) that were deleted: every instance refuses their cookies at once. */
  | { sessionsEnded: string[] };

export const change = (scopes: string[], topics: LiveTopic[]): Change => ({ scopes, topics });
export const changeEverywhere = (topics: LiveTopic[]): Change => ({ everywhere: topics });

/**
 * An account's own details changed: its sessions read it again, its pages refetch it, and for a
 * customer the staff lists that show it.
 */
export const accountChanged = (account: Principal): Change[] => [
  { account },
  ...(account.kind === 'user'
    ? [change([account.id], ['account']), change([STAFF], ['users', 'queue', 'chats'])]
    : []),
];

/**
 * What a command answers: its value, and what it changed. The command runs its transaction, its
 * audit rows and its notices; `app.run` publishes the changes once, after the commit.
 */
export interface Outcome<T> {
  value: T;
  changed: Change[];
}

export type Command<T> = (context: CommandContext) => Promise<Outcome<T>>;
