import { type AnyColumn, and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { isPaid, moneyStatus } from '../../../shared/statuses';
import {
  RECENT_TRANSACTIONS_LIMIT,
  type Transaction,
  transactionSchema,
} from '../../../shared/transactions';
import { BatchLoader, groupBy } from '../../db/batch';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { mappedOnce } from '../../db/rows';
import { feedback, paymentMethods, transactions, users } from '../../db/schema';
import { compileSerializer } from '../../plugins/serializer';
import { sellerMoneyColumns } from '../ledger';
import {
  fairDealingColumns,
  fairDealingFields,
  feedbackColumns,
  feedbackOf,
  isoOf,
  type Moment,
  payoutColumn,
  payoutOf,
  rejectionLabelOf,
} from './columns';
import { type HoldRules, holdOf, isoText } from './payout-holds';
import { expectedDecisionAtOf, type QueuePlaces } from './queue-places';

/**
 * A pending card's place among every pending card, oldest first as staff work (issue 41), read
 * on the (status, created_at, id) index; null once decided.
 */
const queuePosition = sql<number | null>`case when ${transactions.status} = 'pending' then 1 + (
    select count(*) from ${transactions} as ahead
     where ahead.status = 'pending'
       and (ahead.created_at, ahead.id) < (${transactions.createdAt}, ${transactions.id})
  )::int end`;

const expectedDecisionAt = sql<Date | null>`${expectedDecisionAtOf(queuePosition)}`;

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

/**
 * A select from transactions joined with their owner, method and rating (the columns above
 * read from them). Dynamic: the joins type no field, as the selections are flat.
 */
const withJoins = <T extends PgSelect>(select: T) =>
  select
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id));

type DateRow = Omit<
  NonNullable<Awaited<ReturnType<typeof findTransaction>>>,
  'userId' | 'paymentMethodIdentifier' | 'paymentMethodAccountNumber' | 'paymentMethodBankName'
>;
/** The moments of a row, as Dates (findTransaction) or as ISO text (the polled answers). */
type NullableMoments =
  | 'expectedDecisionAt'
  | 'paidAt'
  | 'rejectedAt'
  | 'offerCreatedAt'
  | 'offerExpiresAt'
  | 'offerDecidedAt'
  | 'appealCreatedAt'
  | 'appealDecidedAt'
  | 'feedbackCreatedAt';
type Moments = 'createdAt' | 'updatedAt';
/** When the holds start (findTransaction's rows), or when they end, as ISO text (the polls'). */
type HoldStarts = { payeeChangedAt: Moment | null; accountCreatedAt: Moment };
type HoldEnds = { methodHoldEnds: string | null; accountHoldEnds: string | null };
type Row = Omit<
  DateRow,
  Moments | NullableMoments | 'validationStatus' | 'queuePosition' | keyof HoldStarts
> & {
  [K in Moments]: Moment;
} & { [K in NullableMoments]: Moment | null } & { queuePosition: number | null } & (
    | HoldStarts
    | HoldEnds
  );

/**
 * A row as the customer's answer, field by field: the customer's list maps thousands of rows at
 * once after a restart, and copying each row through rest and spread objects (answerFields, as
 * staff answers do) cost about a quarter of a cold answer's CPU in a profile (issue 26).
 */
export const toTransaction = (row: Row, holds: HoldRules): Transaction => ({
  id: row.id,
  createdAt: isoOf(row.createdAt),
  updatedAt: isoOf(row.updatedAt),
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
          expectedDecisionAt: isoOf(row.expectedDecisionAt),
        },
  paymentMethodId: row.paymentMethodId,
  paymentMethodType: row.paymentMethodType,
  paymentMethodAccountName: row.paymentMethodAccountName,
  rejectionReason: row.rejectionReason,
  rejectionReasonLabel: rejectionLabelOf(row),
  rejectionNote: row.rejectionNote,
  paidAt: row.paidAt === null ? null : isoOf(row.paidAt),
  payoutReference: row.payoutReference,
  feedback: feedbackOf(row),
  ...fairDealingFields(row),
  ...holdFields(row, holds),
  payout: payoutOf(row.payoutText),
});

const hoursAfter = (start: Moment | null, hours: number) =>
  start && hours > 0
    ? new Date(
        (typeof start === 'string' ? Date.parse(start) : start.getTime()) + hours * 3_600_000,
      ).toISOString()
    : null;

/**
 * When the card's payout may go, and why it waits (decision 072; issue 43 item 17): the later
 * hold not ended at `holds.now`, for a card whose payout is still to come (not paid, rejected or
 * withdrawn); null otherwise, as staff's queue says it.
 */
function holdFields(
  row: Pick<Row, 'status' | 'paymentStatus'> & (HoldStarts | HoldEnds),
  holds: HoldRules,
): Pick<Transaction, 'payoutHoldUntil' | 'payoutHoldReason'> {
  const hold =
    moneyStatus(row.status, row.paymentStatus).hasPayout && !isPaid(row.paymentStatus)
      ? holdOf(
          'methodHoldEnds' in row
            ? row
            : {
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
 * What the customer's list and recent page show, and nothing else (issue 45): `columns` without
 * what staff alone see, with every moment as the ISO text the answer carries, made by the database
 * (isoText), so that no Date is made per cell. Aliased: the recent page reads them through a
 * lateral subquery, where two `created_at`s would be ambiguous.
 */
const {
  validationStatus: _staffOnly,
  payeeChangedAt: _holdStart,
  accountCreatedAt: _otherHoldStart,
  // From the places each instance holds (queue-places.ts), not counted per card.
  queuePosition: _counted,
  expectedDecisionAt: _countedToo,
  ...shown
} = columns;
const holdEnd = (start: AnyColumn, hours: string) =>
  sql`case when ${sql.placeholder(hours)}::int > 0 then ${start} + make_interval(hours => ${sql.placeholder(hours)}::int) end`;
const momentText = (value: SQL | AnyColumn, name: string) => isoText(value).as(name);
const nullableText = (value: SQL | AnyColumn, name: string) =>
  sql<string | null>`${isoText(value)}`.as(name);
const answerColumns = {
  ...shown,
  createdAt: momentText(transactions.createdAt, 'created_at_text'),
  updatedAt: momentText(transactions.updatedAt, 'updated_at_text'),
  paidAt: nullableText(transactions.paidAt, 'paid_at_text'),
  // When each payout hold ends (decision 072), by the database, for the hours the loader is
  // given: no Date per card for them either.
  methodHoldEnds: nullableText(
    holdEnd(paymentMethods.payeeChangedAt, 'methodHours'),
    'method_hold_ends',
  ),
  accountHoldEnds: nullableText(holdEnd(users.createdAt, 'accountHours'), 'account_hold_ends'),
  rejectedAt: nullableText(transactions.rejectedAt, 'rejected_at_text'),
  offerCreatedAt: nullableText(transactions.offerCreatedAt, 'offer_created_at_text'),
  offerExpiresAt: nullableText(transactions.offerExpiresAt, 'offer_expires_at_text'),
  offerDecidedAt: nullableText(transactions.offerDecidedAt, 'offer_decided_at_text'),
  appealCreatedAt: nullableText(transactions.appealCreatedAt, 'appeal_created_at_text'),
  appealDecidedAt: nullableText(transactions.appealDecidedAt, 'appeal_decided_at_text'),
  feedbackCreatedAt: nullableText(feedback.createdAt, 'feedback_created_at'),
};

/** One transaction as the polled answers write it: the route's serialiser, for one item. */
const serializeTransaction = compileSerializer(transactionSchema);

/**
 * One customer's cards from one read, newest first: all of them, or the newest
 * RECENT_TRANSACTIONS_LIMIT when only the recent page asked. The list and the recent page asked
 * in the same batch share one read and each card's JSON, written once (issue 45).
 */
export class CustomerCards {
  private readonly json: string[] = [];

  constructor(readonly rows: Row[]) {}

  /**
   * The answer's bytes for the first `limit` cards (all without one): an array of the cards, as
   * the route's serialiser writes `z.array(transactionSchema)`. A card's JSON is made at the first
   * answer's `holds.now`: the list and the recent page of one read say the same.
   */
  body(holds: HoldRules, limit = Number.POSITIVE_INFINITY): string {
    const count = Math.min(limit, this.rows.length);
    let out = '[';
    for (let i = 0; i < count; i++) {
      if (i > 0) out += ',';
      out += this.json[i] ??= serializeTransaction(toTransaction(this.rows[i]!, holds));
    }
    return `${out}]`;
  }
}

const newestFirst = [desc(transactions.createdAt), desc(transactions.id)];

/**
 * Customers' cards, every customer asked for at once in one statement (db/batch.ts): the whole
 * list for those whose list was asked, and for the others (the recent page alone) the newest few,
 * read through the index per customer. A customer whose list and recent page are asked in the
 * same batch is read once, whole.
 */
const cardsLoader = (db: Db) =>
  prepared(db, 'customer-cards', (db) => {
    const all = mappedOnce(
      withJoins(
        db
          .select({ ...answerColumns, userId: transactions.userId })
          .from(transactions)
          .$dynamic(),
      )
        .where(byUserIds)
        .orderBy(...newestFirst)
        .prepare('transactions-list-many'),
    );
    const latest = withJoins(db.select(answerColumns).from(transactions).$dynamic())
      .where(eq(transactions.userId, sql`ids.user_id`))
      .orderBy(...newestFirst)
      .limit(RECENT_TRANSACTIONS_LIMIT)
      .as('latest');
    const fields = Object.fromEntries(
      Object.keys(answerColumns).map((name) => [name, latest[name as keyof typeof answerColumns]]),
    ) as { [K in keyof typeof answerColumns]: (typeof latest)[K] };
    const recent = mappedOnce(
      db
        .select({ userId: sql<string>`ids.user_id`.as('user_id'), ...fields })
        .from(sql`unnest(${sql.placeholder('userIds')}::uuid[]) as ids(user_id)`)
        .crossJoinLateral(latest)
        .prepare('transactions-recent-many'),
    );
    /** Customers whose whole list is asked for, until the batch that reads them starts. */
    const whole = new Set<string>();
    /** The payout holds' hours and the queue's places, the app's (one app to a database). */
    const hours = { methodHours: 0, accountHours: 0 };
    let places: QueuePlaces | undefined;
    const loader = new BatchLoader(
      async (userIds: string[]) => {
        const wholeIds = new Set(userIds.filter((id) => whole.delete(id)));
        const recentIds = userIds.filter((id) => !wholeIds.has(id));
        const [wholeRows, recentRows] = await Promise.all([
          wholeIds.size > 0 ? all.execute({ userIds: [...wholeIds], ...hours }) : [],
          recentIds.length > 0 ? recent.execute({ userIds: recentIds, ...hours }) : [],
        ]);
        const rows = await placed([...wholeRows, ...recentRows], places!);
        const found = new Map<string, CustomerCards>();
        for (const [id, cards] of groupBy(rows, (row) => row.userId))
          found.set(id, new CustomerCards(cards));
        return found;
      },
      () => new CustomerCards([]),
    );
    return {
      load(userId: string, wholeList: boolean, holds: HoldRules, queue: QueuePlaces) {
        if (wholeList) whole.add(userId);
        places = queue;
        hours.methodHours = holds.newMethodHours;
        hours.accountHours = holds.newAccountHours;
        return loader.load(userId);
      },
    };
  });

/**
 * The rows with each pending card's place in the queue (queue-places.ts). A pending card the held
 * places do not have yet (submitted on another instance, whose news has not arrived) has them
 * read again, once; a card still missing then left pending since, and says no place.
 */
async function placed<R extends { id: string; status: string }>(
  rows: R[],
  queue: QueuePlaces,
): Promise<(R & Pick<Row, 'queuePosition' | 'expectedDecisionAt'>)[]> {
  const pending = rows.filter((row) => row.status === 'pending');
  let places = pending.length > 0 ? await queue.current() : undefined;
  if (places && pending.some((row) => !places!.has(row.id))) {
    await queue.refresh();
    places = await queue.current();
  }
  return rows.map((row) => {
    const place = row.status === 'pending' ? places!.get(row.id) : undefined;
    return Object.assign(row, {
      queuePosition: place?.position ?? null,
      expectedDecisionAt: place?.expectedDecisionAt ?? null,
    });
  });
}

/** The customer's cards, newest first (all of them, or the most recent few). */
export function customerCards(
  db: Db,
  places: QueuePlaces,
  userId: string,
  holds: HoldRules,
  recent = false,
): Promise<CustomerCards> {
  return cardsLoader(db).load(userId, !recent, holds, places);
}

/** The customer's transactions as the API answers them (all of them, or the most recent few). */
export async function listTransactions(
  db: Db,
  places: QueuePlaces,
  userId: string,
  holds: HoldRules,
  recent = false,
) {
  const cards = await customerCards(db, places, userId, holds, recent);
  return cards.body(holds, recent ? RECENT_TRANSACTIONS_LIMIT : undefined);
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
