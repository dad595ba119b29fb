import { and, desc, eq, getTableColumns, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { AdminTransaction, AuditEntry } from '../../../shared/admin';
import { fromCents, toCents } from '../../../shared/money';
import type { Db } from '../../db/client';
import { auditLog, chatMessages, paymentMethods, transactions, users } from '../../db/schema';
import type { Account } from '../../plugins/auth';
import { HttpError, notFound } from '../../plugins/errors';
import { decodeCursor, encodeCursor } from './cursor';

const adminColumns = {
  ...getTableColumns(transactions),
  userEmail: users.email,
  userFirstName: users.firstName,
  userLastName: users.lastName,
  paymentMethodType: paymentMethods.type,
  paymentMethodAccountName: paymentMethods.accountName,
  paymentMethodIdentifier: paymentMethods.identifier,
  paymentMethodAccountNumber: paymentMethods.accountNumber,
  paymentMethodBankName: paymentMethods.bankName,
  paymentMethodRoutingNumber: paymentMethods.routingNumber,
  cursorCreatedAt: sql<string>`${transactions.createdAt}::text`,
};

type AdminRow = { [K in keyof typeof adminColumns]: unknown } & typeof transactions.$inferSelect;

export function toAdminTransaction(row: AdminRow): AdminTransaction {
  const { cursorCreatedAt: _cursor, ...rest } = row as AdminRow & Record<string, unknown>;
  return {
    ...(rest as unknown as AdminTransaction),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function baseQuery(db: Db) {
  return db
    .select(adminColumns)
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId));
}

export interface AdminListOptions {
  search?: string;
  status?: string;
  cursor?: string;
  limit: number;
}

/** The review queue, newest first, a page at a time; search matches card type, email or id. */
export async function listAdminTransactions(db: Db, options: AdminListOptions) {
  const conditions: SQL[] = [];
  if (options.status && options.status !== 'all')
    conditions.push(eq(transactions.status, options.status));
  if (options.search) {
    const pattern = `%${escapeLike(options.search)}%`;
    conditions.push(
      or(
        ilike(transactions.cardType, pattern),
        ilike(users.email, pattern),
        sql`${transactions.id}::text like ${`${escapeLike(options.search.toLowerCase())}%`}`,
      )!,
    );
  }
  if (options.cursor) {
    const { createdAt, id } = decodeCursor(options.cursor);
    conditions.push(
      sql`(${transactions.createdAt}, ${transactions.id}) < (${createdAt}::timestamptz, ${id}::uuid)`,
    );
  }
  const rows = await baseQuery(db)
    .where(and(...conditions))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > options.limit && last ? encodeCursor(last.cursorCreatedAt, last.id) : null;
  return { items: page.map((r) => toAdminTransaction(r as AdminRow)), nextCursor };
}

export async function findAdminTransaction(db: Db, id: string) {
  const [row] = await baseQuery(db).where(eq(transactions.id, id));
  return row ? toAdminTransaction(row as AdminRow) : null;
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

const EDITABLE = ['status', 'paymentStatus', 'paymentAmount', 'adminNotes'] as const;
type Editable = (typeof EDITABLE)[number];
export type TransactionChanges = Partial<Record<Editable, string | null>>;

export const STALE_SAVE =
  'This transaction was changed by someone else after you opened it. Reload it and try again.';

/**
 * Applies a staff edit and its audit row in one database transaction. Refuses with 409 when
 * the row changed since `expectedUpdatedAt`. Fields that do not change are not written.
 */
export async function updateTransactionAsStaff(
  db: Db,
  actor: Account,
  id: string,
  input: TransactionChanges,
  expectedUpdatedAt?: string,
) {
  return db.transaction(async (tx) => {
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

    const changes: Record<string, { from: unknown; to: unknown }> = {};
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
    if (Object.keys(changes).length > 0) {
      await tx
        .update(transactions)
        // status and paymentStatus are never null here: the schema only admits their values.
        .set({ ...(set as Partial<typeof transactions.$inferInsert>), updatedAt: sql`now()` })
        .where(eq(transactions.id, id));
      await tx.insert(auditLog).values({
        entityType: 'transaction',
        entityId: id,
        actorKind: actor.kind,
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'update',
        changes,
      });
    }
    return Object.keys(changes);
  });
}

export async function adminStats(db: Db) {
  const [row] = await db
    .select({
      totalTransactions: sql<number>`(select count(*) from ${transactions})::int`,
      pendingReview: sql<number>`(select count(*) from ${transactions} where ${transactions.status} = 'pending')::int`,
      totalUsers: sql<number>`(select count(*) from ${users})::int`,
      chatMessages: sql<number>`(select count(*) from ${chatMessages} where ${chatMessages.senderType} = 'user')::int`,
    })
    .from(sql`(select 1) as one`);
  return row!;
}

export function listAdminUsers(db: Db, options: { cursor?: string; limit: number }) {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isAdmin: users.isAdmin,
      createdAt: users.createdAt,
      cursorCreatedAt: sql<string>`${users.createdAt}::text`,
    })
    .from(users)
    .where(
      after
        ? sql`(${users.createdAt}, ${users.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
        : undefined,
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(options.limit + 1);
}
