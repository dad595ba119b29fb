import { and, desc, eq, sql } from 'drizzle-orm';
import { isPaid, moneyStatus } from '../../../shared/statuses';
import { RECENT_TRANSACTIONS_LIMIT, type Transaction } from '../../../shared/transactions';
import { BatchLoader, groupBy } from '../../db/batch';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { mappedOnce } from '../../db/rows';
import { feedback, paymentMethods, transactions, users } from '../../db/schema';
import { sellerMoneyColumns } from '../ledger';
import {
  fairDealingColumns,
  fairDealingFields,
  feedbackColumns,
  feedbackOf,
  payoutColumn,
  payoutOf,
  rejectionLabelOf,
} from './columns';
import { type HoldRules, holdOf } from './payout-holds';

/**
 * A pending card's place among every pending card, oldest first as staff work (issue 41), read
 * on the (status, created_at, id) index; null once decided.
 */
const queuePosition = sql<number | null>`case when ${transactions.status} = 'pending' then 1 + (
    select count(*) from ${transactions} as ahead
     where ahead.status = 'pending'
       and (ahead.created_at, ahead.id) < (${transactions.createdAt}, ${transactions.id})
  )::int end`;

/**
 * When a pending card can expect a decision: now plus its position times the minutes one staff
 * decision took over the last 24 hours (1,440 ÷ their number); with none, the 120-minute review
 * target per card ahead. Instant decisions are not staff throughput. "Now" is the minute, so the
 * same data reads as the same bytes within it (an answer's ETag names its data, live.test.ts).
 */
const expectedDecisionAt = sql<Date | null>`case when ${transactions.status} = 'pending' then date_trunc('minute', now()) + (${queuePosition}) * (
    select case when count(*) > 0 then 1440.0 / count(*) else 120 end from ${transactions} as decided
     where decided.first_decision_at > date_trunc('minute', now()) - interval '24 hours'
       and decided.decided_by is distinct from 'auto'
  ) * interval '1 minute' end`;

/** What a customer's transaction answers carry (transactionSchema), and nothing else. */
const columns = {
  id: transactions.id,
  createdAt: transactions.createdAt,
  updatedAt: transactions.updatedAt,
  cardType: transactions.cardType,
  cardValue: transactions.cardValue,
  cardCondition: transactions.cardCondition,
  cardFormat: transactions.cardFormat,
  imageUrls: transactions.imageUrls,
  notes: transactions.notes,
  cardCodeLast4: transactions.cardCodeLast4,
  status: transactions.status,
  paymentStatus: transactions.paymentStatus,
  paymentAmount: transactions.paymentAmount,
  adminNotes: transactions.adminNotes,
  validationStatus: transactions.validationStatus,
  payoutRate: transactions.payoutRate,
  expectedPayout: transactions.expectedPayout,
  rateTier: transactions.rateTier,
  decidedBy: transactions.decidedBy,
  queuePosition: queuePosition.mapWith(Number).as('queue_position'),
  expectedDecisionAt: expectedDecisionAt
    .mapWith((v: string | Date | null) => (v === null ? null : new Date(v)))
    .as('expected_decision_at'),
  paidAt: transactions.paidAt,
  payoutReference: transactions.payoutReference,
  paymentMethodId: transactions.paymentMethodId,
  paymentMethodType: paymentMethods.type,
  paymentMethodAccountName: paymentMethods.accountName,
  rejectionReason: transactions.rejectionReason,
  rejectionNote: transactions.rejectionNote,
  // When the payout holds start (decision 072): the answer says when each ends (payoutHoldUntil).
  payeeChangedAt: paymentMethods.payeeChangedAt,
  // Named apart from the card's own created_at, for the recent list's subquery.
  accountCreatedAt: sql<Date>`${users.createdAt}`.mapWith(users.createdAt).as('account_created_at'),
  ...fairDealingColumns,
  ...feedbackColumns(),
  payoutText: payoutColumn(),
};

/** The columns above, from a transaction joined with its payment method and its rating. */
const selectTransactions = (db: Db) =>
  db
    .select(columns)
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id));

type Row = Awaited<ReturnType<typeof selectTransactions>>[number];

/**
 * A row as the customer's answer, field by field: the customer's list maps thousands of rows at
 * once after a restart, and copying each row through rest and spread objects (answerFields, as
 * staff answers do) cost about a quarter of a cold answer's CPU in a profile (issue 26).
 */
export const toTransaction = (row: Row, holds: HoldRules): Transaction => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  cardType: row.cardType,
  cardValue: row.cardValue,
  cardCondition: row.cardCondition,
  cardFormat: row.cardFormat,
  imageUrls: row.imageUrls,
  notes: row.notes,
  cardCodeLast4: row.cardCodeLast4,
  status: row.status,
  paymentStatus: row.paymentStatus,
  paymentAmount: row.paymentAmount,
  adminNotes: row.adminNotes,
  payoutRate: row.payoutRate,
  expectedPayout: row.expectedPayout,
  rateTier: row.rateTier,
  decidedBy: row.decidedBy,
  queue:
    row.queuePosition === null || row.expectedDecisionAt === null
      ? null
      : {
          position: row.queuePosition,
          expectedDecisionAt: new Date(row.expectedDecisionAt).toISOString(),
        },
  paymentMethodId: row.paymentMethodId,
  paymentMethodType: row.paymentMethodType,
  paymentMethodAccountName: row.paymentMethodAccountName,
  rejectionReason: row.rejectionReason,
  rejectionReasonLabel: rejectionLabelOf(row),
  rejectionNote: row.rejectionNote,
  paidAt: row.paidAt ? row.paidAt.toISOString() : null,
  payoutReference: row.payoutReference,
  feedback: feedbackOf(row),
  ...fairDealingFields(row),
  ...holdFields(row, holds),
  payout: payoutOf(row.payoutText),
});

const hoursAfter = (start: Date | null, hours: number) =>
  start && hours > 0 ? new Date(start.getTime() + hours * 3_600_000).toISOString() : null;

/**
 * When the card's payout may go, and why it waits (decision 072; issue 43 item 17): the later
 * hold not ended at `holds.now`, for a card whose payout is still to come (not paid, rejected or
 * withdrawn); null otherwise, as staff's queue says it.
 */
function holdFields(
  row: Pick<Row, 'status' | 'paymentStatus' | 'payeeChangedAt' | 'accountCreatedAt'>,
  holds: HoldRules,
): Pick<Transaction, 'payoutHoldUntil' | 'payoutHoldReason'> {
  const hold =
    moneyStatus(row.status, row.paymentStatus).hasPayout && !isPaid(row.paymentStatus)
      ? holdOf(
          {
            methodHoldEnds: hoursAfter(row.payeeChangedAt, holds.newMethodHours),
            accountHoldEnds: hoursAfter(row.accountCreatedAt, holds.newAccountHours),
          },
          holds.now,
        )
      : null;
  return { payoutHoldUntil: hold?.until ?? null, payoutHoldReason: hold?.reason ?? null };
}

const byUserIds = sql`${transactions.userId} = any(${sql.placeholder('userIds')}::uuid[])`;

/**
 * Customers' transactions, newest first, with the name of the method they are paid to: every
 * customer asked for at once in one statement (db/batch.ts), the rows grouped by customer.
 */
const listLoader = (db: Db) =>
  prepared(db, 'transactions-list', (db) => {
    const statement = mappedOnce(
      db
        .select({ ...columns, userId: transactions.userId })
        .from(transactions)
        .innerJoin(users, eq(users.id, transactions.userId))
        .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
        .leftJoin(feedback, eq(feedback.transactionId, transactions.id))
        .where(byUserIds)
        .orderBy(desc(transactions.createdAt), desc(transactions.id))
        .prepare('transactions-list-many'),
    );
    return new BatchLoader(
      async (userIds: string[]) => {
        const rows = await statement.execute({ userIds });
        return groupBy(rows, (row) => row.userId);
      },
      () => [],
    );
  });

/** The newest RECENT_TRANSACTIONS_LIMIT of each customer, read through the index per customer. */
const recentLoader = (db: Db) =>
  prepared(db, 'transactions-recent', (db) => {
    const latest = selectTransactions(db)
      .where(eq(transactions.userId, sql`ids.user_id`))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(RECENT_TRANSACTIONS_LIMIT)
      .as('latest');
    const fields = Object.fromEntries(
      Object.keys(columns).map((name) => [name, latest[name as keyof typeof columns]]),
    ) as { [K in keyof typeof columns]: (typeof latest)[K] };
    const statement = mappedOnce(
      db
        .select({ userId: sql<string>`ids.user_id`.as('user_id'), ...fields })
        .from(sql`unnest(${sql.placeholder('userIds')}::uuid[]) as ids(user_id)`)
        .crossJoinLateral(latest)
        .prepare('transactions-recent-many'),
    );
    return new BatchLoader(
      async (userIds: string[]) => {
        const rows = await statement.execute({ userIds });
        return groupBy(rows, (row) => row.userId);
      },
      () => [],
    );
  });

/** The customer's transactions, newest first (all of them, or the most recent few). */
export async function listTransactions(db: Db, userId: string, holds: HoldRules, recent = false) {
  const rows = await (recent ? recentLoader(db) : listLoader(db)).load(userId);
  return rows.map((row) => toTransaction(row, holds));
}

export async function findTransaction(db: Db, id: string, userId?: string) {
  const [row] = await db
    .select({
      ...columns,
      userId: transactions.userId,
      paymentMethodIdentifier: paymentMethods.identifier,
      paymentMethodAccountNumber: paymentMethods.accountNumber,
      paymentMethodBankName: paymentMethods.bankName,
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id))
    .where(
      userId
        ? and(eq(transactions.id, id), eq(transactions.userId, userId))
        : eq(transactions.id, id),
    );
  return row;
}

/**
 * The dashboard's figures: counts by status from the cards; totalEarned (paid in total) and
 * awaitingPayment (approved, not yet paid) from the books (issue 39, decision 093), which answer
 * what the cards' columns did (PRODUCT.md, decisions 052 and 060).
 */
const statsLoader = (db: Db) =>
  prepared(db, 'transaction-stats', (db) => {
    const statement = mappedOnce(
      db
        .select({
          userId: transactions.userId,
          totalSubmitted: sql<number>`count(*)::int`,
          pending: sql<number>`(count(*) filter (where ${transactions.status} = 'pending'))::int`,
          completed: sql<number>`(count(*) filter (where ${transactions.status} = 'completed'))::int`,
          ...sellerMoneyColumns(),
        })
        .from(transactions)
        .where(byUserIds)
        .groupBy(transactions.userId)
        .prepare('transaction-stats-many'),
    );
    return new BatchLoader(
      async (userIds: string[]) => {
        const rows = await statement.execute({ userIds });
        return new Map(rows.map(({ userId, ...stats }) => [userId, stats]));
      },
      () => ({
        totalSubmitted: 0,
        pending: 0,
        completed: 0,
        totalEarned: '0.00',
        awaitingPayment: '0.00',
      }),
    );
  });

export async function transactionStats(db: Db, userId: string) {
  return statsLoader(db).load(userId);
}
