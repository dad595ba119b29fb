import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-ledger-check-'));

/** `npm run ledger:check` on the embedded database in `dataDir`. */
function ledgerCheck() {
  const result = spawnSync(
    process.execPath,
    [tsx, path.join(import.meta.dirname, 'ledger-check.ts')],
    {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

async function withDb(
  work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<unknown>,
) {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    await database.migrate();
    await work(database.db);
  } finally {
    await database.close();
  }
}

// Each command is a process of its own opening the embedded database from disk: on a busy machine
// a few of them take longer than a request's 30 s.
describe('npm run ledger:check', { timeout: 120_000 }, () => {
  it('finds the books in line on a seeded database, and names a card changed behind them', async () => {
    await withDb(async (db) => {
      await db.execute(sql`
        insert into users (id, email, password) values ('00000000-0000-4000-8000-000000000001', 'ada@example.com', 'x')`);
      await db.execute(sql`
        insert into transactions (id, user_id, card_type, card_value, card_condition, card_format,
          image_urls, status, payment_status, payment_amount, payout_rate, expected_payout)
        select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid,
               '00000000-0000-4000-8000-000000000001', 'Amazon', 100, 'brand_new', 'egift', '{}',
               case when g % 3 = 0 then 'pending' else 'completed' end,
               case when g % 3 = 1 then 'sent' else 'pending' end,
               case when g % 3 = 1 then 91 end, 0.91, 91
          from generate_series(1, 30) g`);
      await db.execute(sql`select ledger_open_books()`);
    });
    const clean = ledgerCheck();
    expect(clean.output).toMatch(/^The books match the cards \(\d+\.\d s\)$/m);
    expect(clean.status).toBe(0);

    const changed = '00000000-0000-4000-8000-000000000004'; // a paid card (4 % 3 = 1)
    await withDb((db) =>
      db.execute(sql`update transactions set payment_amount = 95 where id = ${changed}`),
    );
    const found = ledgerCheck();
    expect(found.output).toContain(
      `card ${changed}: credited to its seller 91.00 in the books, 95.00 expected`,
    );
    expect(found.output).toContain(`card ${changed}: paid 91.00 in the books, 95.00 expected`);
    expect(found.output).toMatch(/^2 mismatches \(\d+\.\d s\)$/m);
    expect(found.status).toBe(1);
  });
});
