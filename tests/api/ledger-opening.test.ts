import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../scripts/lib/postgres';
import { type Database, openDatabase } from '../../src/server/db/client';
import { checkLedger, sellerFigures, statementOf } from '../../src/server/modules/ledger';
import { figuresFromCards } from '../lib/card-figures';

const MIGRATIONS = path.join(import.meta.dirname, '../../src/server/db/migrations');
const LEDGER_MIGRATION = 26;

/** The migrations before the ledger's, in a folder of their own. */
function migrationsBeforeLedger() {
  const folder = mkdtempSync(path.join(tmpdir(), 'cb-migrations-'));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < LEDGER_MIGRATION);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

let database: Database;
let drop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const fresh = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : null;
  drop = fresh?.drop;
  database = await openDatabase({ databaseUrl: fresh?.url });
  await migrate(database.db, { migrationsFolder: migrationsBeforeLedger() });
});
afterAll(async () => {
  await database.close();
  await drop?.();
});

/**
 * Cards of two sellers in every state that matters to money, written before the books existed:
 * the figures the dashboard showed then are what the books must open with.
 */
async function seedCards() {
  const db = database.db;
  await db.execute(sql`
    insert into users (id, email, password) values
      ('00000000-0000-4000-8000-000000000001', 'ada@example.com', 'x'),
      ('00000000-0000-4000-8000-000000000002', 'bo@example.com', 'x')`);
  await db.execute(sql`
    insert into payment_methods (id, user_id, type, account_name, identifier, account_number) values
      ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'cash_app', 'Ada', '$adalovelace', null),
      ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000002', 'bank_transfer', 'Bo', null, '000123456789')`);
  // status, payment status, payment amount, expected payout, offer status, paid / decided times
  const cards: [string, string, string, string | null, string, string | null][] = [
    ['ada', 'pending', 'pending', null, '91.00', null],
    ['ada', 'processing', 'pending', null, '91.00', null],
    ['ada', 'completed', 'pending', '95.00', '91.00', null],
    ['ada', 'completed', 'sent', '91.00', '91.00', null],
    ['ada', 'completed', 'confirmed', '45.50', '45.50', null],
    ['ada', 'rejected', 'pending', null, '91.00', null],
    ['ada', 'processing', 'pending', null, '91.00', 'pending'],
    ['ada', 'processing', 'pending', '40.00', '91.00', 'accepted'],
    ['bo', 'completed', 'sent', null, '44.50', null],
    ['bo', 'rejected', 'sent', '20.00', '44.50', null],
    ['bo', 'completed', 'pending', null, '1234.56', null],
  ];
  let n = 0;
  for (const [who, status, paymentStatus, amount, expected, offer] of cards) {
    n++;
    const user = who === 'ada' ? '1' : '2';
    const method = who === 'ada' ? 'a1' : 'b1';
    await db.execute(sql`
      insert into transactions (user_id, card_type, card_value, card_condition, card_format, image_urls,
        status, payment_status, payment_amount, payout_rate, expected_payout, offer_status,
        payment_method_id, first_decision_at, paid_at, created_at)
      values (${`00000000-0000-4000-8000-00000000000${user}`}, 'Amazon', 100, 'brand_new', 'egift', '{}',
        ${status}, ${paymentStatus}, ${amount}, 0.91, ${expected}, ${offer},
        ${`00000000-0000-4000-8000-0000000000${method}`},
        ${status === 'pending' ? null : `2026-10-0${Math.min(n, 9)}T10:00:00Z`},
        ${paymentStatus === 'pending' ? null : `2026-10-1${Math.min(n, 9)}T10:00:00Z`},
        '2026-10-01T09:00:00Z')`);
  }
}

describe('the opening books', () => {
  it('open with what the cards say, in the order it happened, worded for the seller', async () => {
    await seedCards();
    const before = await figuresFromCards(database.db);
    await database.migrate();

    expect(await checkLedger(database.db)).toEqual([]);
    const figures = await sellerFigures(
      database.db,
      before.map((r) => r.user_id),
    );
    for (const row of before) {
      const f = figures.get(row.user_id)!;
      expect({ earned: (f.paid / 100).toFixed(2), awaiting: (f.owed / 100).toFixed(2) }).toEqual({
        earned: row.earned,
        awaiting: row.awaiting,
      });
    }
    // Ada: approved 91 + 95 + 91 + 45.50 + 40 (the accepted offer); paid 91 + 45.50.
    expect(figures.get('00000000-0000-4000-8000-000000000001')).toEqual({
      owed: 22_600,
      paid: 13_650,
      owedBack: 0,
      onTheWay: 0,
    });

    const ada = await statementOf(database.db, '00000000-0000-4000-8000-000000000001');
    expect(ada.items.map((i) => [i.description, i.amount, i.balance]).reverse()).toEqual([
      ['Card Amazon $100.00 approved', '91.00', '91.00'],
      ['Card Amazon $100.00 approved', '95.00', '186.00'],
      ['Card Amazon $100.00 approved', '91.00', '277.00'],
      ['Card Amazon $100.00 approved', '45.50', '322.50'],
      ['Card Amazon $100.00 approved', '40.00', '362.50'],
      ['Paid to Cash App $ada…', '-91.00', '271.50'],
      ['Paid to Cash App $ada…', '-45.50', '226.00'],
    ]);
    const bo = await statementOf(database.db, '00000000-0000-4000-8000-000000000002');
    expect(bo.items.map((i) => i.description)).toContain('Paid to Bank Transfer ••••6789');
  });

  it('post nothing twice when run again', async () => {
    const count = async () =>
      (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from ledger_entries`))
        .rows[0]!.n;
    const entries = await count();
    await database.db.execute(sql`select ledger_open_books()`);
    expect(await count()).toBe(entries);
  });
});
