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
    const ms = await warmUp(t.app, t.database);
    expect(ms).toBeGreaterThan(0);
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
});
