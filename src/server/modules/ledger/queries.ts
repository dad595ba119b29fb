import { and, asc, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import {
  accountName,
  accountOrder,
  allocateNetting,
  type Balance,
  type Books,
  type EntryKind,
  LEDGER_PAGE,
  type LedgerEntry,
  ON_THE_WAY,
  PAID_OUT,
  PAYMENT_KINDS,
  SELLER_PAYABLE,
  SELLER_RECEIVABLE,
  type Statement,
  signedMoney,
  type TrialBalance,
} from '../../../shared/ledger';
import { paymentMethodLabel } from '../../../shared/payment-methods';
import { badRequest } from '../../common/http-error';
import type { Db } from '../../db/client';
import { clawbacks, ledgerAccountDays, ledgerEntries, ledgerPostings } from '../../db/schema';
import { nettableClawbacks, owedCards } from './cards';

/** A page of entries (LEDGER_PAGE); the cursor is the last entry's `seq`. */
export function parseSeqCursor(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return null;
  if (!/^\d{1,15}$/.test(cursor))
    throw badRequest('The cursor is not one this list gave', 'cursor');
  return Number(cursor);
}

/** A seller's figures in cents (the seller accounts' sub-accounts, one index range each). */
export interface SellerFigures {
  owed: number;
  onTheWay: number;
  paid: number;
  owedBack: number;
}

export const NO_FIGURES: SellerFigures = { owed: 0, onTheWay: 0, paid: 0, owedBack: 0 };

const PAYMENT_KIND_LIST = sql.raw(PAYMENT_KINDS.map((k) => `'${k}'`).join(', '));

/**
 * The figures of many sellers in one statement: owed is what the payable sub-account holds
 * (approved cards not yet paid), paid what payments took out of it (a payment netted against
 * what was owed back included), owed back what the receivable holds.
 */
export const figureColumns = {
  owed: sql<number>`coalesce(-sum(${ledgerPostings.amount}) filter (where ${ledgerPostings.account} = ${SELLER_PAYABLE}), 0)::bigint`.mapWith(
    Number,
  ),
  paid: sql<number>`coalesce(sum(${ledgerPostings.amount}) filter (where ${ledgerPostings.account} = ${SELLER_PAYABLE} and ${ledgerPostings.kind} in (${PAYMENT_KIND_LIST})), 0)::bigint`.mapWith(
    Number,
  ),
  owedBack:
    sql<number>`coalesce(sum(${ledgerPostings.amount}) filter (where ${ledgerPostings.account} = ${SELLER_RECEIVABLE}), 0)::bigint`.mapWith(
      Number,
    ),
  /** Sent through an automatic rail and not yet confirmed (issue 40): the on-the-way accounts. */
  onTheWay:
    sql<number>`coalesce(-sum(${ledgerPostings.amount}) filter (where ${ledgerPostings.account} like ${`${ON_THE_WAY}:%`}), 0)::bigint`.mapWith(
      Number,
    ),
};

export async function sellerFigures(
  db: Db,
  userIds: string[],
): Promise<Map<string, SellerFigures>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: ledgerPostings.userId, ...figureColumns })
    .from(ledgerPostings)
    .where(inArray(ledgerPostings.userId, userIds))
    .groupBy(ledgerPostings.userId);
  return new Map(rows.map(({ userId, ...figures }) => [userId!, figures]));
}

/**
 * The Balance panel: `paid` counts what has arrived (or was sent by hand), so a payout on the way
 * shows under `onTheWay` and not under `paid` too.
 */
export const toBalance = (f: SellerFigures): Balance => ({
  owed: signedMoney(f.owed),
  onTheWay: signedMoney(f.onTheWay),
  paid: signedMoney(f.paid - f.onTheWay),
  owedBack: signedMoney(f.owedBack),
});

export async function balanceOf(db: Db, userId: string): Promise<Balance> {
  return toBalance((await sellerFigures(db, [userId])).get(userId) ?? NO_FIGURES);
}

/**
 * A seller's statement, newest first: each entry that moved their accounts, with its amount from
 * their side (what they are owed, less what they owe back: a credit is positive) and the balance
 * after it, summed in the order entries were posted.
 */
export async function statementOf(
  db: Db,
  userId: string,
  cursor?: string,
  limit = LEDGER_PAGE,
): Promise<Statement> {
  const before = parseSeqCursor(cursor);
  const rows = await db.execute<{
    id: string;
    cursor: string;
    at: string;
    kind: EntryKind;
    memo: string;
    transaction_id: string | null;
    amount: string;
    balance: string;
  }>(sql`
    with lines as (
      select e.id, e.seq, e.at, e.kind, e.memo, e.transaction_id, -sum(p.amount) as amount
        from ${ledgerEntries} e
        join ${ledgerPostings} p on p.entry_id = e.id and p.user_id = ${userId}
             and p.account not like ${`${ON_THE_WAY}:%`}
       where e.user_id = ${userId}
       group by e.id),
    running as (
      select *, sum(amount) over (order by seq) as balance from lines)
    select id, seq::text as cursor, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
           kind, memo, transaction_id, amount::text, balance::text
      from running
     ${before === null ? sql`` : sql`where seq < ${before}`}
     order by seq desc
     limit ${limit + 1}`);
  const page = rows.rows.slice(0, limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      at: r.at,
      kind: r.kind,
      description: r.memo,
      amount: signedMoney(Number(r.amount)),
      balance: signedMoney(Number(r.balance)),
      transactionId: r.transaction_id,
    })),
    nextCursor: rows.rows.length > limit ? page[page.length - 1]!.cursor : null,
  };
}

/**
 * Every account's balance, from the days rolled up as postings are made (the seller accounts as
 * their totals: their sub-accounts are the sellers' statements). Debits positive.
 */
export async function trialBalance(db: Db): Promise<TrialBalance> {
  const rows = await db
    .select({
      account: ledgerAccountDays.account,
      debits: sql<string>`sum(${ledgerAccountDays.debits})::text`,
      credits: sql<string>`sum(${ledgerAccountDays.credits})::text`,
    })
    .from(ledgerAccountDays)
    .groupBy(ledgerAccountDays.account);
  let debits = 0n;
  let credits = 0n;
  const accounts = rows
    .map((r) => {
      debits += BigInt(r.debits);
      credits += BigInt(r.credits);
      return {
        code: r.account,
        name: accountName(r.account),
        cents: Number(BigInt(r.debits) - BigInt(r.credits)),
      };
    })
    .filter((a) => a.cents !== 0)
    .sort((a, b) => accountOrder(a.code) - accountOrder(b.code) || a.code.localeCompare(b.code))
    .map(({ cents, ...a }) => ({ ...a, balance: signedMoney(cents) }));
  return {
    accounts,
    debits: signedMoney(Number(debits)),
    credits: signedMoney(Number(credits)),
    balanced: debits === credits,
  };
}

/** Entries with their postings, newest first, for staff (by card, by customer, or all). */
export async function ledgerEntriesOf(
  db: Db,
  filter: { transactionId?: string; customerId?: string; cursor?: string },
  limit = LEDGER_PAGE,
): Promise<{ items: LedgerEntry[]; nextCursor: string | null }> {
  const before = parseSeqCursor(filter.cursor);
  const where: SQL[] = [];
  if (filter.transactionId) where.push(eq(ledgerEntries.transactionId, filter.transactionId));
  if (filter.customerId) where.push(eq(ledgerEntries.userId, filter.customerId));
  if (before !== null) where.push(lt(ledgerEntries.seq, before));
  const entries = await db
    .select()
    .from(ledgerEntries)
    .where(and(...where))
    .orderBy(desc(ledgerEntries.seq))
    .limit(limit + 1);
  const page = entries.slice(0, limit);
  const postings =
    page.length === 0
      ? []
      : await db
          .select()
          .from(ledgerPostings)
          .where(
            inArray(
              ledgerPostings.entryId,
              page.map((e) => e.id),
            ),
          )
          .orderBy(asc(ledgerPostings.id));
  return {
    items: page.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      kind: e.kind as EntryKind,
      memo: e.memo,
      transactionId: e.transactionId,
      clawbackId: e.clawbackId,
      customerId: e.userId,
      actorEmail: e.actorEmail,
      idempotencyKey: e.idempotencyKey,
      postings: postings
        .filter((p) => p.entryId === e.id)
        .map((p) => ({ account: p.account, customerId: p.userId, amount: signedMoney(p.amount) })),
    })),
    nextCursor: entries.length > limit ? String(page[page.length - 1]!.seq) : null,
  };
}

/** Days of money out shown on the Books tab. */
export const OUT_DAYS = 30;

/**
 * The Books tab: what sellers are owed, in total and by the payment method each card pays to
 * (the money to have ready); money out per day over the last OUT_DAYS days; what is owed back,
 * by the age of its clawback.
 */
export async function books(db: Db, now: Date): Promise<Books> {
  const [owedRows, outRows, agedRows] = await Promise.all([
    db.execute<{ type: string | null; amount: string }>(sql`
      select m.type, (-sum(p.amount))::text as amount
        from ${ledgerPostings} p
        join ${ledgerEntries} e on e.id = p.entry_id
        left join transactions t on t.id = e.transaction_id
        left join payment_methods m on m.id = t.payment_method_id
       where p.account = ${SELLER_PAYABLE}
       group by m.type
      having sum(p.amount) <> 0`),
    db
      .select({
        day: sql<string>`${ledgerAccountDays.day}::text`,
        amount: sql<string>`(sum(${ledgerAccountDays.credits}) - sum(${ledgerAccountDays.debits}))::text`,
      })
      .from(ledgerAccountDays)
      .where(
        and(
          sql`${ledgerAccountDays.account} like ${`${PAID_OUT}:%`}`,
          sql`${ledgerAccountDays.day} > (${now.toISOString()}::timestamptz at time zone 'UTC')::date - ${OUT_DAYS}::integer`,
        ),
      )
      .groupBy(ledgerAccountDays.day)
      .orderBy(ledgerAccountDays.day),
    db.execute<{ age: string; amount: string }>(sql`
      select case when c.created_at > ${now.toISOString()}::timestamptz - interval '30 days' then '0-30'
                  when c.created_at > ${now.toISOString()}::timestamptz - interval '90 days' then '31-90'
                  else '90+' end as age,
             sum(p.amount)::text as amount
        from ${clawbacks} c
        join ${ledgerEntries} e on e.clawback_id = c.id
        join ${ledgerPostings} p on p.entry_id = e.id and p.account = ${SELLER_RECEIVABLE}
       where c.status = 'open'
       group by 1`),
  ]);
  const aged = new Map(agedRows.rows.map((r) => [r.age, Number(r.amount)]));
  const owedByMethod = owedRows.rows
    .map((r) => ({
      type: r.type,
      label: r.type === null ? 'No payment method' : paymentMethodLabel(r.type),
      amount: signedMoney(Number(r.amount)),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return {
    owedTotal: signedMoney(owedRows.rows.reduce((sum, r) => sum + Number(r.amount), 0)),
    owedByMethod,
    outByDay: outRows.map((r) => ({ day: r.day, amount: signedMoney(Number(r.amount)) })),
    owedBackAged: {
      days0to30: signedMoney(aged.get('0-30') ?? 0),
      days31to90: signedMoney(aged.get('31-90') ?? 0),
      over90: signedMoney(aged.get('90+') ?? 0),
    },
  };
}

/**
 * What the seller is still owed for a card (its payable sub-account), in cents: a column of a
 * select from `transactions`.
 */
export const owedForCard = () =>
  sql<number>`coalesce((select -sum(p.amount) from ${ledgerPostings} p join ${ledgerEntries} e
    on e.id = p.entry_id where e.transaction_id = "transactions"."id"
    and p.account = ${SELLER_PAYABLE}), 0)::bigint`.mapWith(Number);

/** A card's payout split: what it is owed, the part set against what is owed back, and the rest. */
export interface ToSend {
  owed: number;
  netted: number;
  net: number;
}

/**
 * What to send for each card a seller is owed for, by the netting rule (allocateNetting): the
 * payouts list shows it, and marking a card sent posts it.
 */
export async function toSendFor(db: Db, userId: string): Promise<Map<string, ToSend>> {
  const [nettable, cards] = await Promise.all([
    nettableClawbacks(db, userId),
    owedCards(db, userId),
  ]);
  const owedBack = nettable.reduce((sum, c) => sum + c.outstanding, 0);
  const shares = allocateNetting(owedBack, cards);
  return new Map(
    cards.map((c) => {
      const netted = shares.get(c.id) ?? 0;
      return [c.id, { owed: c.owed, netted, net: c.owed - netted }];
    }),
  );
}

/** Cents summed in SQL as money text with 2 decimals. */
const moneyText = (cents: SQL) => sql<string>`(${cents} / 100.0)::numeric(12, 2)::text`;

/**
 * The dashboard's money (`/api/stats`, the weekly digest), from the books: what the seller was
 * paid in total, and what they are owed now. Columns of a select from `transactions` grouped by
 * its `user_id`, each one index range of the seller's postings.
 */
export const sellerMoneyColumns = () => ({
  totalEarned: moneyText(sql`(select coalesce(sum(p.amount), 0) from ${ledgerPostings} p
    where p.user_id = "transactions"."user_id" and p.account = ${SELLER_PAYABLE}
    and p.kind in (${PAYMENT_KIND_LIST}))`),
  awaitingPayment: moneyText(sql`(select coalesce(-sum(p.amount), 0) from ${ledgerPostings} p
    where p.user_id = "transactions"."user_id" and p.account = ${SELLER_PAYABLE})`),
});

/** What left through a payment method for each card, in cents (what a statement line shows). */
export async function sentFor(db: Db, transactionIds: string[]): Promise<Map<string, number>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: ledgerEntries.transactionId,
      sent: sql<number>`(-sum(${ledgerPostings.amount}))::bigint`.mapWith(Number),
    })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(
      and(
        inArray(ledgerEntries.transactionId, transactionIds),
        sql`${ledgerPostings.account} like ${`${PAID_OUT}:%`}`,
      ),
    )
    .groupBy(ledgerEntries.transactionId);
  return new Map(rows.map((r) => [r.id!, r.sent]));
}
