import { and, desc, eq, getTableColumns, ilike, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AdminTransaction, AuditEntry } from '../../../shared/admin';
import { fromCents, toCents } from '../../../shared/money';
import { REJECTION_NOTE_REQUIRED, REJECTION_REASON_REQUIRED } from '../../../shared/rejections';
import { isPaid } from '../../../shared/statuses';
import type { Db } from '../../db/client';
import {
  auditLog,
  chatConversations,
  chatMessages,
  feedback,
  paymentMethods,
  transactions,
  users,
  validationLogs,
} from '../../db/schema';
import type { Account } from '../../plugins/auth';
import { badRequest, HttpError, notFound } from '../../plugins/errors';
import { answerFields, feedbackColumns } from '../cards/queries';
import { notify, transactionNotice } from '../notifications/notify';
import { type AuditChanges, recordAudit } from './audit';
import { afterCursor, cursorColumn, toPage } from './cursor';

/**
 * Who a card belongs to and where to pay them (spec section 3), for a query that joins `users`
 * and left-joins `payment_methods` (the staff queue, payouts).
 */
export const payeeColumns = {
  userEmail: users.email,
  userFirstName: users.firstName,
  userLastName: users.lastName,
  paymentMethodType: paymentMethods.type,
  paymentMethodAccountName: paymentMethods.accountName,
  paymentMethodIdentifier: paymentMethods.identifier,
  paymentMethodAccountNumber: paymentMethods.accountNumber,
  paymentMethodBankName: paymentMethods.bankName,
  paymentMethodRoutingNumber: paymentMethods.routingNumber,
};

const adminColumns = {
  ...getTableColumns(transactions),
  ...payeeColumns,
  userEmailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
  ...feedbackColumns(),
  validationFlags: sql<
    string[]
  >`array(select ${validationLogs.validationType} from ${validationLogs}
    where ${validationLogs.transactionId} = ${transactions.id} and ${validationLogs.status} = 'flagged'
    order by ${validationLogs.validationType})`,
  cursorCreatedAt: cursorColumn(transactions.createdAt),
};

type AdminRow = Awaited<ReturnType<typeof baseQuery>>[number];

export const toAdminTransaction = (row: Omit<AdminRow, 'cursorCreatedAt'>): AdminTransaction => ({
  ...answerFields(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  paidAt: row.paidAt ? row.paidAt.toISOString() : null,
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function baseQuery(db: Db) {
  return db
    .select(adminColumns)
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id));
}

export interface AdminListOptions {
  search?: string;
  status?: string;
  validation?: string;
  cursor?: string;
  limit: number;
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
  if (options.cursor)
    filters.push(afterCursor(options.cursor, transactions.createdAt, transactions.id));
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
  const rows = await baseQuery(db)
    .where(where)
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(take);
  const { items, nextCursor } = toPage(rows, options.limit);
  return {
    items: items.map(toAdminTransaction),
    nextCursor,
  };
}

export async function findAdminTransaction(db: Db, id: string) {
  const [row] = await baseQuery(db).where(eq(transactions.id, id));
  if (!row) return null;
  const { cursorCreatedAt: _cursor, ...transaction } = row;
  return toAdminTransaction(transaction);
}

export async function transactionAudit(db: Db, id: string): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'transaction'), eq(auditLog.entityId, id)))
    .orderBy(desc(auditLog.createdAt));
  return rows.map((r) => ({
    id: r.id,
    actorEmail: r.actorEmail,
    action: r.action,
    changes: r.changes as AuditEntry['changes'],
    createdAt: r.createdAt.toISOString(),
  }));
}

const EDITABLE = [
  'status',
  'paymentStatus',
  'paymentAmount',
  'adminNotes',
  'payoutReference',
] as const;
type Editable = (typeof EDITABLE)[number] | 'rejectionReason' | 'rejectionNote';
export type TransactionChanges = Partial<Record<Editable, string | null>>;

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();

/**
 * The card's rejection after an edit (decision 051): a card set to rejected needs a reason, sent
 * or already on it; `other` needs a note, and no other reason keeps one; a card that is not
 * rejected has neither.
 */
export function rejectionAfter(
  current: { status: string; rejectionReason: string | null; rejectionNote: string | null },
  input: TransactionChanges,
): { rejectionReason: string | null; rejectionNote: string | null } {
  const status = input.status ?? current.status;
  const sentReason = blankToNull(input.rejectionReason);
  const sentNote = blankToNull(input.rejectionNote);
  if (status !== 'rejected') {
    if (sentReason) {
      throw badRequest(
        'A rejection reason can only be given with the status Rejected',
        'rejectionReason',
      );
    }
    return { rejectionReason: null, rejectionNote: null };
  }
  const reason = sentReason === undefined ? current.rejectionReason : sentReason;
  // A card rejected before reasons existed may keep its other fields edited without one.
  const touched = input.status !== undefined || sentReason !== undefined || sentNote !== undefined;
  if (!reason) {
    if (touched) throw badRequest(REJECTION_REASON_REQUIRED, 'rejectionReason');
    return { rejectionReason: null, rejectionNote: null };
  }
  if (reason !== 'other') {
    if (sentNote) {
      throw badRequest('A rejection note goes with the reason Other only', 'rejectionNote');
    }
    return { rejectionReason: reason, rejectionNote: null };
  }
  const note = sentNote === undefined ? current.rejectionNote : sentNote;
  if (!note) throw badRequest(REJECTION_NOTE_REQUIRED, 'rejectionNote');
  return { rejectionReason: reason, rejectionNote: note };
}

export const STALE_SAVE =
  'This transaction was changed by someone else after you opened it. Reload it and try again.';

/**
 * Applies a staff edit and its audit row in one database transaction. Refuses with 409 when
 * the row changed since `expectedUpdatedAt`. Fields that do not change are not written.
 */
export async function updateTransactionAsStaff(
  app: FastifyInstance,
  actor: Account,
  id: string,
  input: TransactionChanges,
  expectedUpdatedAt?: string,
) {
  return app.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        ...getTableColumns(transactions),
        updatedAtMs: sql<string>`date_trunc('milliseconds', ${transactions.updatedAt})`,
      })
      .from(transactions)
      .where(eq(transactions.id, id))
      .for('update');
    if (!current) throw notFound('Transaction not found');
    if (
      expectedUpdatedAt &&
      new Date(current.updatedAtMs).getTime() !== new Date(expectedUpdatedAt).getTime()
    ) {
      throw new HttpError(409, STALE_SAVE);
    }

    const changes: AuditChanges = {};
    const set: TransactionChanges = {};
    for (const field of EDITABLE) {
      const next = input[field];
      if (next === undefined) continue;
      const before = current[field] ?? null;
      const normalized =
        next === null || next.trim() === ''
          ? null
          : field === 'paymentAmount'
            ? fromCents(toCents(next))
            : next;
      if (before === normalized) continue;
      set[field] = normalized;
      changes[field] = { from: before, to: normalized };
    }
    const rejection = rejectionAfter(current, input);
    for (const field of ['rejectionReason', 'rejectionNote'] as const) {
      if (current[field] === rejection[field]) continue;
      set[field] = rejection[field];
      changes[field] = { from: current[field], to: rejection[field] };
    }
    if (Object.keys(changes).length > 0) {
      // When the money went out (decision 060): stamped as payment leaves pending, kept while it
      // stays sent or confirmed, cleared if staff set it back to pending.
      const paidAt =
        set.paymentStatus === undefined
          ? {}
          : !isPaid(set.paymentStatus ?? '')
            ? { paidAt: null }
            : current.paidAt === null
              ? { paidAt: sql`now()` }
              : {};
      await tx
        .update(transactions)
        // status and paymentStatus are never null here: the schema only admits their values.
        .set({
          ...(set as Partial<typeof transactions.$inferInsert>),
          ...paidAt,
          updatedAt: sql`now()`,
        })
        .where(eq(transactions.id, id));
      await recordAudit(tx, actor, {
        entityType: 'transaction',
        entityId: id,
        action: 'update',
        changes,
      });
      // The customer hears of a decision (status, payment); a note alone is not news.
      const notice = transactionNotice({ ...current, ...rejection }, changes);
      if (notice) await notify(app, tx, current.userId, notice);
    }
    return { userId: current.userId, changed: Object.keys(changes) };
  });
}

export async function adminStats(db: Db) {
  const [totalTransactions, pendingReview, totalUsers, userMessages, [ratings], [unread]] =
    await Promise.all([
      db.$count(transactions),
      db.$count(transactions, eq(transactions.status, 'pending')),
      db.$count(users),
      db.$count(chatMessages, eq(chatMessages.senderType, 'user')),
      db
        .select({
          average: sql<string | null>`round(avg(${feedback.rating}), 1)::text`,
          count: sql<number>`count(*)::int`,
        })
        .from(feedback)
        .where(eq(feedback.type, 'transaction')),
      // One row per conversation, its unread count kept by triggers (migration 0012).
      db
        .select({ n: sql<number>`coalesce(sum(${chatConversations.unreadCount}), 0)::int` })
        .from(chatConversations),
    ]);
  return {
    totalTransactions,
    pendingReview,
    totalUsers,
    chatMessages: userMessages,
    averageRating: ratings?.average ?? null,
    ratingCount: ratings?.count ?? 0,
    unreadChatMessages: unread?.n ?? 0,
  };
}

/** Customers, newest first, a page at a time. */
export async function listAdminUsers(db: Db, options: { cursor?: string; limit: number }) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isAdmin: users.isAdmin,
      emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
      createdAt: users.createdAt,
      cursorCreatedAt: cursorColumn(users.createdAt),
    })
    .from(users)
    .where(options.cursor ? afterCursor(options.cursor, users.createdAt, users.id) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(options.limit + 1);
  const { items, nextCursor } = toPage(rows, options.limit);
  return { items: items.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() })), nextCursor };
}
