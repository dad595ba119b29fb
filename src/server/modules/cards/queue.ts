import { and, asc, desc, eq, getTableColumns, ilike, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AdminTransaction, QueueSort } from '../../../shared/admin';
import { isPaid } from '../../../shared/statuses';
import { auditEntries } from '../../common/audit';
import {
  afterCursor,
  afterCursorAscending,
  cursorColumn,
  leadingParts,
  toPage,
} from '../../common/cursor';
import type { Db } from '../../db/client';
import {
  auditLog,
  feedback,
  paymentMethods,
  transactions,
  uploads,
  users,
  validationLogs,
} from '../../db/schema';
import { claimantOf } from './claims';
import { answerFields, feedbackColumns, payeeColumns, payoutColumn, payoutOf } from './columns';
import { type HoldRules, holdColumns, holdOf } from './payout-holds';

/** Staff's reads of cards: the review queue, a card with its history, its removed photos. */

/** Every column of a card but its sealed code and the code's hash (decision 082). */
const { cardCode: _code, cardCodeHash: _hash, ...cardColumns } = getTableColumns(transactions);

const adminColumns = (holds: HoldRules) => ({
  ...cardColumns,
  ...holdColumns(holds),
  ...payeeColumns,
  userEmailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
  ...feedbackColumns(),
  validationFlags: sql<
    string[]
  >`array(select ${validationLogs.validationType} from ${validationLogs}
    where ${validationLogs.transactionId} = ${transactions.id} and ${validationLogs.status} = 'flagged'
    order by ${validationLogs.validationType})`,
  payoutText: payoutColumn(),
});

type AdminRow = Awaited<ReturnType<typeof baseQuery>>[number];

export const toAdminTransaction = (
  { methodHoldEnds, accountHoldEnds, payoutText, ...row }: Omit<AdminRow, 'cursorCreatedAt'>,
  now: number,
): AdminTransaction => {
  // A card already paid waits for nothing (decision 072).
  const hold = isPaid(row.paymentStatus) ? null : holdOf({ methodHoldEnds, accountHoldEnds }, now);
  return {
    ...answerFields(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    payoutHoldUntil: hold?.until ?? null,
    payoutHoldReason: hold?.reason ?? null,
    firstDecisionAt: row.firstDecisionAt ? row.firstDecisionAt.toISOString() : null,
    claimedBy: claimantOf(row, now),
    payout: payoutOf(payoutText),
  };
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function baseQuery(db: Db, holds: HoldRules, cursorOn: PgColumn = transactions.createdAt) {
  return db
    .select({ ...adminColumns(holds), cursorCreatedAt: cursorColumn(cursorOn) })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id));
}

export interface AdminListOptions {
  search?: string;
  status?: string;
  validation?: string;
  appeal?: string;
  sampled?: string;
  /** One customer's cards (the customer page, issue 43 item 15). */
  userId?: string;
  sort?: QueueSort;
  cursor?: string;
  limit: number;
  /** The payout hold rules and the app's clock (decision 072). */
  holds: HoldRules;
}

/** A search that looks like the start of an id, as the range of uuids it covers (uses the key). */
export function idPrefixRange(search: string): [string, string] | null {
  const hex = search.toLowerCase().replaceAll('-', '');
  if (hex.length < 4 || hex.length > 32 || !/^[0-9a-f]+$/.test(hex)) return null;
  const uuid = (h: string) =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return [uuid(hex.padEnd(32, '0')), uuid(hex.padEnd(32, 'f'))];
}

/**
 * The review queue, newest first, a page at a time; search matches card type, customer email or
 * the start of the id. Each kind of match is its own indexed, limited query and only their union
 * is joined, so a rare match does not scan 100,000 rows joined to their customers.
 */
export async function listAdminTransactions(db: Db, options: AdminListOptions) {
  const filters: SQL[] = [];
  if (options.status && options.status !== 'all')
    filters.push(eq(transactions.status, options.status));
  if (options.validation && options.validation !== 'all')
    filters.push(eq(transactions.validationStatus, options.validation));
  if (options.appeal && options.appeal !== 'all')
    filters.push(eq(transactions.appealStatus, options.appeal));
  if (options.sampled) filters.push(eq(transactions.sampleStatus, options.sampled));
  if (options.userId) filters.push(eq(transactions.userId, options.userId));
  // Appeals waiting for a decision: the oldest appeal first (decision 073).
  const appealsFirst = options.appeal === 'pending' && !options.search;
  // The portal's queue order; a search lists its matches newest first.
  const waitingSort = options.sort === 'waiting' && !options.search && !appealsFirst;
  if (options.cursor && !waitingSort)
    filters.push(
      appealsFirst
        ? afterCursorAscending(options.cursor, transactions.appealCreatedAt, transactions.id)
        : afterCursor(options.cursor, transactions.createdAt, transactions.id),
    );
  const take = options.limit + 1;
  let where = and(...filters);
  if (options.search) {
    const pattern = `%${escapeLike(options.search)}%`;
    const branch = (match: SQL) =>
      sql`(select ${transactions.id} from ${transactions} where ${and(match, ...filters)}
           order by ${transactions.createdAt} desc, ${transactions.id} desc limit ${take})`;
    const branches = [
      branch(ilike(transactions.cardType, pattern)),
      branch(
        sql`${transactions.userId} in (select ${users.id} from ${users} where ${ilike(users.email, pattern)})`,
      ),
    ];
    const range = idPrefixRange(options.search);
    if (range)
      branches.push(
        branch(sql`${transactions.id} between ${range[0]}::uuid and ${range[1]}::uuid`),
      );
    where = sql`${transactions.id} in (${sql.join(branches, sql` union `)})`;
  }
  if (waitingSort) return waitingFirst(db, options, filters);
  const rows = await baseQuery(
    db,
    options.holds,
    appealsFirst ? transactions.appealCreatedAt : transactions.createdAt,
  )
    .where(where)
    .orderBy(
      ...(appealsFirst
        ? [asc(transactions.appealCreatedAt), asc(transactions.id)]
        : [desc(transactions.createdAt), desc(transactions.id)]),
    )
    .limit(take);
  const { items, nextCursor } = toPage(rows, options.limit);
  return {
    items: items.map((row) => toAdminTransaction(row, options.holds.now)),
    nextCursor,
  };
}

/**
 * The portal's queue (issue 24): the cards waiting for a decision, longest-waiting first, then
 * the rest newest first. Two queries, each in the order of an index, so a deep queue is not sorted
 * whole; the second runs only when the first leaves the page short.
 */
async function waitingFirst(db: Db, options: AdminListOptions, filters: SQL[]) {
  const take = options.limit + 1;
  const parts = leadingParts(options.cursor, transactions.createdAt, transactions.id);
  const waiting = eq(transactions.status, 'pending');
  const rows: (AdminRow & { cursorFlag: boolean })[] = [];
  if (parts.first !== null) {
    const first = await baseQuery(db, options.holds)
      .where(and(...filters, waiting, parts.first))
      .orderBy(asc(transactions.createdAt), asc(transactions.id))
      .limit(take);
    rows.push(...first.map((row) => ({ ...row, cursorFlag: true })));
  }
  if (rows.length < take) {
    const rest = await baseQuery(db, options.holds)
      .where(and(...filters, ne(transactions.status, 'pending'), parts.rest))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(take - rows.length);
    rows.push(...rest.map((row) => ({ ...row, cursorFlag: false })));
  }
  const { items, nextCursor } = toPage(rows, options.limit);
  return {
    items: items.map((row) => toAdminTransaction(row, options.holds.now)),
    nextCursor,
  };
}

export async function findAdminTransaction(db: Db, id: string, holds: HoldRules) {
  const [row] = await baseQuery(db, holds).where(eq(transactions.id, id));
  if (!row) return null;
  const { cursorCreatedAt: _cursor, ...transaction } = row;
  return toAdminTransaction(transaction, holds.now);
}

export const transactionAudit = (db: Db, id: string) =>
  auditEntries(db, and(eq(auditLog.entityType, 'transaction'), eq(auditLog.entityId, id))!);

/** The card's photos the retention run deleted, as the paths `imageUrls` holds. */
export async function removedImagesOf(db: Db, transactionId: string): Promise<string[]> {
  const rows = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(eq(uploads.transactionId, transactionId), sql`${uploads.removedAt} is not null`));
  return rows.map((r) => `/objects/${r.key}`);
}
