import { sql } from 'drizzle-orm';
import {
  CREDIT_KINDS,
  PAYMENT_KINDS,
  SELLER_PAYABLE,
  SELLER_RECEIVABLE,
  signedMoney,
} from '../../../shared/ledger';
import type { Db } from '../../db/client';

/** One place where the books and what they should say differ. */
export interface Mismatch {
  /** What differs: a card's credit or payment, a clawback, an account's rollup, an entry. */
  subject: 'card' | 'clawback' | 'account' | 'entry';
  id: string;
  what: string;
  /** What the books hold, and what they should, as decimal strings. */
  ledger: string;
  expected: string;
}

/** A mismatch between cents in the books and cents expected, both as the database's text. */
const differs = (
  subject: Mismatch['subject'],
  id: string,
  what: string,
  ledger: string,
  expected: string,
): Mismatch => ({
  subject,
  id,
  what,
  ledger: signedMoney(Number(ledger)),
  expected: signedMoney(Number(expected)),
});

const list = (kinds: readonly string[]) => sql.raw(kinds.map((k) => `'${k}'`).join(', '));

/**
 * Recomputes what every card implies (the `ledger_card_money` view of migration 0026, the rules
 * of impliedByCard) and compares it with what is posted for it; every clawback's amount and
 * what is owed back on it with its status; the rolled-up days with the postings; and every
 * entry's balance (which the database already enforces at commit). Answers every mismatch.
 */
export async function checkLedger(db: Db): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  const cards = await db.execute<{
    id: string;
    credited: string;
    posted_credited: string;
    paid: string;
    posted_paid: string;
  }>(sql`
    with posted as (
      select e.transaction_id as id,
             coalesce(-sum(p.amount) filter (where p.kind in (${list(CREDIT_KINDS)})), 0) as credited,
             coalesce(sum(p.amount) filter (where p.kind in (${list(PAYMENT_KINDS)})), 0) as paid
        from ledger_entries e
        join ledger_postings p on p.entry_id = e.id and p.account = ${SELLER_PAYABLE}
       where e.transaction_id is not null
       group by e.transaction_id)
    select c.id, c.credited::text, coalesce(p.credited, 0)::text as posted_credited,
           c.paid::text, coalesce(p.paid, 0)::text as posted_paid
      from ledger_card_money c left join posted p on p.id = c.id
     where c.credited <> coalesce(p.credited, 0) or c.paid <> coalesce(p.paid, 0)
     order by c.id`);
  for (const r of cards.rows) {
    if (r.credited !== r.posted_credited) {
      mismatches.push(
        differs('card', r.id, 'credited to its seller', r.posted_credited, r.credited),
      );
    }
    if (r.paid !== r.posted_paid) {
      mismatches.push(differs('card', r.id, 'paid', r.posted_paid, r.paid));
    }
  }

  const owedBack = await db.execute<{
    id: string;
    status: string;
    amount: string;
    taken: string;
    outstanding: string;
  }>(sql`
    select c.id, c.status, (c.amount * 100)::bigint::text as amount,
           coalesce(sum(p.amount) filter (where p.kind = 'clawback'), 0)::text as taken,
           coalesce(sum(p.amount), 0)::text as outstanding
      from clawbacks c
      left join ledger_entries e on e.clawback_id = c.id
      left join ledger_postings p on p.entry_id = e.id and p.account = ${SELLER_RECEIVABLE}
     group by c.id
    having (c.amount * 100)::bigint <> coalesce(sum(p.amount) filter (where p.kind = 'clawback'), 0)
        or coalesce(sum(p.amount), 0) < 0
        or (c.status = 'open') <> (coalesce(sum(p.amount), 0) > 0)`);
  for (const r of owedBack.rows) {
    mismatches.push(
      r.amount !== r.taken
        ? differs('clawback', r.id, 'taken back', r.taken, r.amount)
        : {
            ...differs('clawback', r.id, `still owed back while ${r.status}`, r.outstanding, '0'),
            expected: r.status === 'open' ? 'more than 0.00' : '0.00',
          },
    );
  }

  const accounts = await db.execute<{ account: string; posted: string; rolled: string }>(sql`
    with posted as (select account, sum(amount) as amount from ledger_postings group by account),
    rolled as (select account, sum(debits) - sum(credits) as amount from ledger_account_days group by account)
    select coalesce(p.account, r.account) as account, coalesce(p.amount, 0)::text as posted,
           coalesce(r.amount, 0)::text as rolled
      from posted p full join rolled r on r.account = p.account
     where coalesce(p.amount, 0) <> coalesce(r.amount, 0)`);
  for (const r of accounts.rows) {
    mismatches.push(
      differs('account', r.account, 'balance in the days rolled up', r.rolled, r.posted),
    );
  }

  const entries = await db.execute<{ id: string; total: string }>(sql`
    select entry_id as id, sum(amount)::text as total from ledger_postings
     group by entry_id having sum(amount) <> 0`);
  for (const r of entries.rows) {
    mismatches.push(differs('entry', r.id, 'postings sum', r.total, '0'));
  }
  return mismatches;
}

/** A mismatch as a line of the check's report. */
export const describeMismatch = (m: Mismatch) =>
  `${m.subject} ${m.id}: ${m.what} ${m.ledger} in the books, ${m.expected} expected`;
