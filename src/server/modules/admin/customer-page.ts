import { and, desc, eq, inArray, or } from 'drizzle-orm';
import { z } from 'zod';
import type { CustomerNote, CustomerPage, CustomerPayout } from '../../../shared/customer-page';
import { CUSTOMER_PAGE_SIZE } from '../../../shared/customer-page';
import { can, type StaffRole } from '../../../shared/staff-roles';
import { chatMessageSchema, ticketSchema } from '../../../shared/support';
import { auditEntries } from '../../common/audit';
import type { CommandContext } from '../../common/command';
import { afterCursor, cursorColumn, toPage } from '../../common/cursor';
import type { Db } from '../../db/client';
import { auditLog, customerNotes, paymentMethods, transactions, users } from '../../db/schema';
import {
  AWAITING_PAYMENT,
  holdRulesOf,
  listAdminTransactions,
  PAID,
  PAYOUT_DUE_TEXT,
} from '../cards';
import { conversation } from '../chat';
import { listPaymentMethods, toPaymentMethod } from '../payment-methods';
import { customerSessions } from '../sessions';
import { customerTickets } from '../support';
import { verificationState } from '../verification';
import { findAdminUser } from './queries';

type Paging = { cursor?: string; limit: number };
const FIRST_PAGE: Paging = { limit: CUSTOMER_PAGE_SIZE };

/** The customer's cards, newest first, as the queue lists them. */
export function customerCards(context: CommandContext, userId: string, paging: Paging) {
  return listAdminTransactions(context.db, { ...paging, userId, holds: holdRulesOf(context) });
}

/**
 * The customer's cards that are paid, or approved and waiting to be paid (PAID, AWAITING_PAYMENT),
 * newest first: what each pays, how far its payment got, and on which rail.
 */
export async function customerPayouts(db: Db, userId: string, paging: Paging) {
  const rows = await db
    .select({
      id: transactions.id,
      cardType: transactions.cardType,
      cardValue: transactions.cardValue,
      status: transactions.status,
      amount: PAYOUT_DUE_TEXT,
      paymentStatus: transactions.paymentStatus,
      paymentMethodType: paymentMethods.type,
      payoutReference: transactions.payoutReference,
      createdAt: transactions.createdAt,
      updatedAt: transactions.updatedAt,
      cursorCreatedAt: cursorColumn(transactions.createdAt),
    })
    .from(transactions)
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .where(
      and(
        eq(transactions.userId, userId),
        or(PAID, AWAITING_PAYMENT),
        paging.cursor
          ? afterCursor(paging.cursor, transactions.createdAt, transactions.id)
          : undefined,
      ),
    )
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(paging.limit + 1);
  const { items, nextCursor } = toPage(rows, paging.limit);
  return {
    items: items.map(
      (row): CustomerPayout => ({
        ...row,
        amount: String(row.amount),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
    ),
    nextCursor,
  };
}

/** Staff's notes about the customer, newest first. */
export async function customerNotesOf(db: Db, userId: string, paging: Paging) {
  const rows = await db
    .select({
      id: customerNotes.id,
      body: customerNotes.body,
      authorId: customerNotes.authorId,
      authorName: customerNotes.authorName,
      createdAt: customerNotes.createdAt,
      cursorCreatedAt: cursorColumn(customerNotes.createdAt),
    })
    .from(customerNotes)
    .where(
      and(
        eq(customerNotes.userId, userId),
        paging.cursor
          ? afterCursor(paging.cursor, customerNotes.createdAt, customerNotes.id)
          : undefined,
      ),
    )
    .orderBy(desc(customerNotes.createdAt), desc(customerNotes.id))
    .limit(paging.limit + 1);
  const { items, nextCursor } = toPage(rows, paging.limit);
  return {
    items: items.map(
      (row): CustomerNote => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
      }),
    ),
    nextCursor,
  };
}

/** Whether the customer exists (a staff account is not a customer). */
export async function customerExists(db: Db, userId: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return !!row;
}

/**
 * GET /api/admin/users/{id} (issue 43 item 15, decision 145): every section of one customer, each
 * list its first page. Chat and tickets only for a role that reads them; null otherwise.
 */
export async function customerPage(
  context: CommandContext,
  role: StaffRole,
  userId: string,
): Promise<CustomerPage | null> {
  const { db } = context;
  const user = await findAdminUser(db, userId);
  if (!user) return null;
  const [
    cards,
    payouts,
    methods,
    verification,
    standingRow,
    history,
    sessions,
    chat,
    tickets,
    notes,
  ] = await Promise.all([
    customerCards(context, userId, FIRST_PAGE),
    customerPayouts(db, userId, FIRST_PAGE),
    listPaymentMethods(db, userId),
    verificationState(db, userId, context.now(), context.config.verification.documentRetentionDays),
    db
      .select({
        note: users.standingNote,
        changedAt: users.standingChangedAt,
      })
      .from(users)
      .where(eq(users.id, userId)),
    auditEntries(
      db,
      and(
        eq(auditLog.entityType, 'user'),
        eq(auditLog.entityId, userId),
        inArray(auditLog.action, ['suspend', 'close', 'reinstate']),
      )!,
      CUSTOMER_PAGE_SIZE,
    ),
    customerSessions(db, userId, context.now()),
    can(role, 'chat') ? conversation(db, userId) : null,
    can(role, 'tickets') ? customerTickets(db, userId) : null,
    customerNotesOf(db, userId, FIRST_PAGE),
  ]);
  // Erased between the two reads: as if it were never there.
  if (!verification) return null;
  const holdHours = context.config.verification.payoutHoldNewMethodHours;
  return {
    user,
    transactions: { items: cards.items, nextCursor: cards.nextCursor ?? null },
    payouts: { items: payouts.items, nextCursor: payouts.nextCursor ?? null },
    paymentMethods: methods.map((row) => toPaymentMethod(row, holdHours)),
    verification,
    standing: {
      standing: user.standing,
      reason: user.standingReason,
      note: standingRow[0]?.note ?? null,
      changedAt: standingRow[0]?.changedAt?.toISOString() ?? null,
      history,
    },
    sessions,
    // Parsed to their schemas: a nullable section is serialised only when it matches exactly.
    chat: chat && { items: z.array(chatMessageSchema).parse(chat), nextCursor: null },
    tickets: tickets && { items: z.array(ticketSchema).parse(tickets), nextCursor: null },
    notes: { items: notes.items, nextCursor: notes.nextCursor ?? null },
  };
}
