import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../scripts/lib/postgres';
import { type Database, openDatabase } from './db/client';
import { claimPeriodicRun } from './jobs';

const HOUR = 60 * 60 * 1000;
let database: Database;
let drop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  // On PostgreSQL when DATABASE_URL is set (several instances), else the embedded database.
  const fresh = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : null;
  drop = fresh?.drop;
  database = await openDatabase({ databaseUrl: fresh?.url });
  await database.migrate();
});
afterAll(async () => {
  await database.close();
  await drop?.();
});

describe('periodic jobs', () => {
  it('give each period to exactly one of the instances that claim it together', async () => {
    const start = new Date('2026-11-23T10:00:00Z');
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => claimPeriodicRun(database, 'sweep', HOUR, start)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const later = new Date(start.getTime() + 30 * 60 * 1000);
    expect(await claimPeriodicRun(database, 'sweep', HOUR, later)).toBe(false);
    const nextHour = new Date(start.getTime() + HOUR);
    const next = await Promise.all([
      claimPeriodicRun(database, 'sweep', HOUR, nextHour),
      claimPeriodicRun(database, 'sweep', HOUR, nextHour),
    ]);
    expect(next.filter(Boolean)).toHaveLength(1);
    // Another job has its own period.
    expect(await claimPeriodicRun(database, 'report', HOUR, later)).toBe(true);
  });
});
