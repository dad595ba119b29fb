import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmUp } from '../../src/server/warm-up';
import { createTestApp, type TestApp } from './helpers';

/** The statements behind a signed-in page's first requests (decision 089). */
const FIRST_READS = [
  'cardbridge-read-sessions',
  'transaction-stats-many',
  'transactions-list-many',
  'transactions-recent-many',
  'chat-conversation-many',
];

describe('warming up before the server listens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('opens every connection of the pool and prepares the first reads', async () => {
    const { pool, kind } = t.database;
    const before = pool.totalCount;
    await warmUp(t.app, t.database);
    // The embedded database has one connection; PostgreSQL's pool opens all ten at once.
    expect(pool.totalCount).toBe(kind === 'postgres' ? 10 : 1);
    if (kind === 'postgres') expect(before).toBeLessThan(10);
    // Each connection's prepared statements: together they hold every first read.
    const clients = await Promise.all(
      Array.from({ length: pool.totalCount }, () => pool.connect()),
    );
    try {
      const names = new Set<string>();
      for (const client of clients) {
        const { rows } = await client.query<{ name: string }>(
          'select name from pg_prepared_statements',
        );
        for (const row of rows) names.add(row.name);
      }
      expect([...names]).toEqual(expect.arrayContaining(FIRST_READS));
    } finally {
      for (const client of clients) client.release();
    }
  });

  it('gives back every connection it opened when the database refuses one', async () => {
    const { pool } = t.database;
    const connect = pool.connect.bind(pool);
    let calls = 0;
    // The last connection is refused, as PostgreSQL refuses one past max_connections (on
    // PostgreSQL nine others are open by then; the embedded database has only the one).
    const max = pool.options.max ?? 10;
    const refusing = () =>
      ++calls === max ? Promise.reject(new Error('sorry, too many clients already')) : connect();
    (pool as { connect: unknown }).connect = refusing;
    try {
      await expect(t.database.connectAll()).rejects.toThrow('too many clients');
    } finally {
      (pool as { connect: unknown }).connect = connect;
    }
    expect(calls).toBe(max);
    expect(pool.idleCount).toBe(pool.totalCount);
    expect(pool.waitingCount).toBe(0);
  });
});
