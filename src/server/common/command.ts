import type { LiveTopic } from '../../shared/live';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { ObjectStorage } from '../storage/object-storage';

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

/**
 * Live topics a write changed, for the scopes that see them (account ids, STAFF, PUBLIC), or for
 * every account at once.
 */
export type Change = { scopes: string[]; topics: LiveTopic[] } | { everywhere: LiveTopic[] };

export const change = (scopes: string[], topics: LiveTopic[]): Change => ({ scopes, topics });
export const changeEverywhere = (topics: LiveTopic[]): Change => ({ everywhere: topics });

/**
 * What a command answers: its value, and what it changed. The command runs its transaction, its
 * audit rows and its notices; `app.run` publishes the changes once, after the commit.
 */
export interface Outcome<T> {
  value: T;
  changed: Change[];
}

export type Command<T> = (context: CommandContext) => Promise<Outcome<T>>;
