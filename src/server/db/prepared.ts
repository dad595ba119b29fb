import type { Db } from './client';

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A prepared statement of `db` (or a batch loader holding one), built once: the hot queries are
 * parsed and planned once per connection instead of being rebuilt, sent and planned on every
 * request.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db, name: string) => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (!statement) {
    statement = build(db, name);
    byName.set(name, statement);
  }
  return statement;
}
