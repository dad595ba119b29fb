import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/server/common/audit';
import { ledgerEntries, ledgerPostings } from '../../src/server/db/schema';
import { move, postEntry } from '../../src/server/modules/ledger';
import { setUpTestApp } from './helpers';

const t = setUpTestApp();

/** An entry of `amount` cents from losses to cards bought, under `key`. */
const entry = (key: string, amount = 100) => ({
  at: new Date(),
  kind: 'write_off' as const,
  memo: 'test',
  idempotencyKey: key,
  postings: move(amount, 'losses', 'cards_bought'),
});

/** The error a statement (or its commit) ends with: the database's own message. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? (error as Error).message;
  }
  throw new Error('the database accepted it');
}

describe('the database keeps the books', () => {
  it('refuses an entry whose postings do not sum to zero, at commit', async () => {
    const db = t.database.db;
    const id = randomUUID();
    const message = await refusal(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into ledger_entries (id, at, kind, actor_kind, actor_id, actor_email, memo, idempotency_key)
          values (${id}, now(), 'write_off', 'system', ${SYSTEM_ACTOR.id}, 'system', 'x', ${`unbalanced:${id}`})`);
        await tx.execute(sql`
          insert into ledger_postings (entry_id, account, amount, kind)
          values (${id}, 'losses', 100, 'write_off'), (${id}, 'cards_bought', -99, 'write_off')`);
      }),
    );
    expect(message).toMatch(/does not balance: 2 postings summing to 1/);
    expect(await db.$count(ledgerEntries, eq(ledgerEntries.id, id))).toBe(0);
  });

  it('refuses an entry with one posting, or none', async () => {
    const db = t.database.db;
    for (const postings of [[], [0]]) {
      const id = randomUUID();
      const message = await refusal(() =>
        db.transaction(async (tx) => {
          await tx.execute(sql`
            insert into ledger_entries (id, at, kind, actor_kind, actor_id, actor_email, memo, idempotency_key)
            values (${id}, now(), 'write_off', 'system', ${SYSTEM_ACTOR.id}, 'system', 'x', ${`lonely:${id}`})`);
          for (const _ of postings) {
            await tx.execute(sql`
              insert into ledger_postings (entry_id, account, amount, kind)
              values (${id}, 'losses', 100, 'write_off')`);
          }
        }),
      );
      expect(message).toMatch(new RegExp(`does not balance: ${postings.length} postings`));
    }
  });

  it('refuses a posting of nothing', async () => {
    const message = await refusal(() =>
      t.database.db.execute(sql`
        insert into ledger_postings (entry_id, account, amount, kind)
        values (${randomUUID()}, 'losses', 0, 'write_off')`),
    );
    expect(message).toMatch(/ledger_postings_amount_not_zero/);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of entries and postings', async () => {
    const db = t.database.db;
    const id = await db.transaction((tx) =>
      postEntry(tx, SYSTEM_ACTOR, entry(`kept:${randomUUID()}`)),
    );
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const statements = [
      sql`update ledger_postings set amount = amount * 2 where entry_id = ${id}`,
      sql`delete from ledger_postings where entry_id = ${id}`,
      sql`update ledger_entries set memo = 'edited' where id = ${id}`,
      sql`delete from ledger_entries where id = ${id}`,
      sql`truncate ledger_postings cascade`,
      sql`truncate ledger_entries cascade`,
      // Even a statement that matches no row.
      sql`delete from ledger_postings where false`,
    ];
    for (const statement of statements) {
      expect(await refusal(() => db.execute(statement))).toMatch(/the books are append-only/);
    }
    const postings = await db.select().from(ledgerPostings).where(eq(ledgerPostings.entryId, id!));
    expect(postings.map((p) => p.amount).sort()).toEqual([-100, 100]);
  });

  it('posts an entry once however many times it is sent at once', async () => {
    const key = `once:${randomUUID()}`;
    const ids = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.database.db.transaction((tx) => postEntry(tx, SYSTEM_ACTOR, entry(key, 250))),
      ),
    );
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    const rows = await t.database.db
      .select({ amount: ledgerPostings.amount })
      .from(ledgerPostings)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
      .where(eq(ledgerEntries.idempotencyKey, key));
    expect(rows.map((r) => r.amount).sort()).toEqual([-250, 250]);
  });
});
