import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { csvCell, toCsv } from '../../../shared/csv';
import { type StatementItem, signedMoney } from '../../../shared/ledger';
import type { Db } from '../../db/client';
import { statementOf } from './queries';

/** Postings read per statement while an export streams. */
const EXPORT_PAGE = 5_000;

export const EXPORT_COLUMNS = [
  'Date',
  'Entry',
  'Kind',
  'Account',
  'Debit',
  'Credit',
  'Memo',
  'Card',
  'Reference',
];

/**
 * The accounting export: one line per posting of the entries dated `from` to `to` (UTC days,
 * both included), in the order they were posted, with debits and credits in their own columns
 * (what an accountant's spreadsheet or ledger software loads). A seller's sub-account is written
 * `seller_payable:<their id>`; the reference is the payout reference staff gave a payment.
 * Streamed a page at a time, so a year of postings never sits in memory.
 */
export function exportPostings(db: Db, from: string, to: string): Readable {
  async function* lines() {
    yield toCsv([EXPORT_COLUMNS]);
    let after = 0;
    for (;;) {
      const page = await db.execute<{
        id: string;
        at: string;
        entry_id: string;
        kind: string;
        account: string;
        user_id: string | null;
        amount: string;
        memo: string;
        transaction_id: string | null;
        reference: string | null;
      }>(sql`
        select p.id::text, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as at,
               p.entry_id, e.kind, p.account, p.user_id, p.amount::text, e.memo, e.transaction_id,
               case when e.kind like 'payment%' then t.payout_reference end as reference
          from ledger_postings p
          join ledger_entries e on e.id = p.entry_id
          left join transactions t on t.id = e.transaction_id
         where e.at >= ${from}::date and e.at < ${to}::date + 1 and p.id > ${after}
         order by p.id
         limit ${EXPORT_PAGE}`);
      for (const row of page.rows) {
        const cents = Number(row.amount);
        yield `${[
          row.at,
          row.entry_id,
          row.kind,
          row.user_id ? `${row.account}:${row.user_id}` : row.account,
          cents > 0 ? signedMoney(cents) : '',
          cents < 0 ? signedMoney(-cents) : '',
          row.memo,
          row.transaction_id,
          row.reference,
        ]
          .map(csvCell)
          .join(',')}\r\n`;
      }
      if (page.rows.length < EXPORT_PAGE) return;
      after = Number(page.rows[page.rows.length - 1]!.id);
    }
  }
  return Readable.from(lines());
}

/** An amount as accountants write it: negative in brackets ("(46.50)"), so no cell starts with "-". */
const bracketed = (amount: string) => (amount.startsWith('-') ? `(${amount.slice(1)})` : amount);

/** The seller's whole statement, oldest first (the CSV download and the data export). */
export async function wholeStatement(db: Db, userId: string): Promise<StatementItem[]> {
  const items: StatementItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await statementOf(db, userId, cursor, 500);
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items.reverse();
}

/** A statement as CSV rows, with the header: money in and out apart, balance in brackets below 0. */
export const statementCsvRows = (items: StatementItem[]): string[][] => [
  ['Date', 'Description', 'Money In', 'Money Out', 'Balance', 'Card'],
  ...items.map((i) => [
    i.at,
    i.description,
    i.amount.startsWith('-') ? '' : i.amount,
    i.amount.startsWith('-') ? i.amount.slice(1) : '',
    bracketed(i.balance),
    i.transactionId ?? '',
  ]),
];
