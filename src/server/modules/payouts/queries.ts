import { and, asc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { fromCents, toCents } from '../../../shared/money';
import { PAYMENT_METHOD_TYPES, paymentMethodLabel } from '../../../shared/payment-methods';
import {
  isPayable,
  type MarkSentResult,
  PAYABLE_STATUSES,
  PAYOUT_LIST_LIMIT,
  type PayoutCard,
  type PayoutGroup,
  type Payouts,
} from '../../../shared/payouts';
import { paymentStatusLabel, statusLabel } from '../../../shared/statuses';
import { groupBy } from '../../db/batch';
import type { Db } from '../../db/client';
import { paymentMethods, transactions, users } from '../../db/schema';
import type { Account } from '../../plugins/auth';
import { type AuditChanges, recordAudit } from '../admin/audit';
import { payeeColumns } from '../admin/queries';
import { notify, transactionNotice } from '../notifications/notify';

const PAYABLE: SQL = and(
  inArray(transactions.status, [...PAYABLE_STATUSES]),
  eq(transactions.paymentStatus, 'pending'),
)!;

/** What to pay: the amount staff set, else the payout quoted at submission. */
const AMOUNT = sql<string>`coalesce(${transactions.paymentAmount}, ${transactions.expectedPayout})::text`;

/** The cards waiting to be paid, oldest first (paid in the order they came). */
async function payableCards(db: Db): Promise<PayoutCard[]> {
  const rows = await db
    .select({
      id: transactions.id,
      createdAt: transactions.createdAt,
      updatedAt: transactions.updatedAt,
      cardType: transactions.cardType,
      cardValue: transactions.cardValue,
      status: transactions.status,
      paymentAmount: transactions.paymentAmount,
      expectedPayout: transactions.expectedPayout,
      amount: AMOUNT,
      userId: transactions.userId,
      ...payeeColumns,
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .where(PAYABLE)
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .limit(PAYOUT_LIST_LIMIT);
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

const sumOf = (cards: { amount: string }[]) =>
  fromCents(cards.reduce((sum, c) => sum + toCents(c.amount), 0));

const typeOrder = (type: string | null) => {
  const at = PAYMENT_METHOD_TYPES.indexOf(type as (typeof PAYMENT_METHOD_TYPES)[number]);
  return at < 0 ? PAYMENT_METHOD_TYPES.length + (type === null ? 1 : 0) : at;
};

/**
 * The oldest cards waiting for payment (up to PAYOUT_LIST_LIMIT), grouped by payment method type
 * in the order of the type list, each group with its count and total; `more` counts the rest.
 */
export async function listPayouts(db: Db): Promise<Payouts> {
  const [cards, waiting] = await Promise.all([payableCards(db), db.$count(transactions, PAYABLE)]);
  const byType = groupBy(cards, (card) => card.paymentMethodType);
  const groups: PayoutGroup[] = [...byType.entries()]
    .sort(([a], [b]) => typeOrder(a) - typeOrder(b) || String(a).localeCompare(String(b)))
    .map(([type, list]) => ({
      type,
      label: type === null ? 'No payment method' : paymentMethodLabel(type),
      count: list.length,
      total: sumOf(list),
      cards: list,
    }));
  return {
    groups,
    count: cards.length,
    total: sumOf(cards),
    more: Math.max(0, waiting - cards.length),
  };
}

const SKIP_MESSAGES = {
  not_found: 'No such transaction',
  amount_changed: 'The amount to pay changed since the list was loaded',
} as const;

/**
 * Marks a batch paid (decision 052), in one database transaction: each card still waiting, and
 * still owed the amount the list showed, becomes Payment Sent and Completed with the amount paid
 * recorded, with an audit row and a notification to its customer. Every other card is left
 * untouched and reported back with the reason.
 */
export async function markPayoutsSent(
  app: FastifyInstance,
  actor: Account,
  items: { id: string; amount: string }[],
  payoutReference?: string | null,
) {
  return app.db.transaction(async (tx) => {
    // Locked in id order, so two batches that share cards cannot deadlock.
    const rows = await tx
      .select({ ...getTableColumns(transactions), amount: AMOUNT })
      .from(transactions)
      .where(
        inArray(
          transactions.id,
          items.map((i) => i.id),
        ),
      )
      .orderBy(asc(transactions.id))
      .for('update');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const result: MarkSentResult = { sent: [], total: '0.00', skipped: [] };
    const customers = new Set<string>();
    for (const item of items) {
      const card = byId.get(item.id);
      if (!card) {
        result.skipped.push({ id: item.id, reason: 'not_found', message: SKIP_MESSAGES.not_found });
        continue;
      }
      if (!isPayable(card)) {
        result.skipped.push({
          id: item.id,
          reason: 'not_payable',
          message: `Not waiting for payment: ${statusLabel(card.status)}, ${paymentStatusLabel(card.paymentStatus)}`,
        });
        continue;
      }
      if (toCents(card.amount) !== toCents(item.amount)) {
        result.skipped.push({
          id: item.id,
          reason: 'amount_changed',
          message: SKIP_MESSAGES.amount_changed,
        });
        continue;
      }
      const amount = fromCents(toCents(card.amount));
      const changes: AuditChanges = {};
      if (card.status !== 'completed') changes.status = { from: card.status, to: 'completed' };
      changes.paymentStatus = { from: card.paymentStatus, to: 'sent' };
      if (card.paymentAmount !== amount) {
        changes.paymentAmount = { from: card.paymentAmount, to: amount };
      }
      // The batch's reference, when given, replaces any the card had; none given keeps it.
      const reference = payoutReference ? { payoutReference } : {};
      if (payoutReference && card.payoutReference !== payoutReference) {
        changes.payoutReference = { from: card.payoutReference, to: payoutReference };
      }
      await tx
        .update(transactions)
        .set({
          status: 'completed',
          paymentStatus: 'sent',
          paymentAmount: amount,
          ...reference,
          paidAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(transactions.id, card.id));
      await recordAudit(tx, actor, {
        entityType: 'transaction',
        entityId: card.id,
        action: 'payout_sent',
        changes,
      });
      // The notice names the amount paid even when staff had set it before.
      const notice = transactionNotice(card, {
        ...changes,
        paymentAmount: { from: card.paymentAmount, to: amount },
      });
      if (notice) await notify(app, tx, card.userId, notice);
      customers.add(card.userId);
      result.sent.push({ id: card.id, amount });
    }
    result.total = sumOf(result.sent);
    return { result, customers: [...customers] };
  });
}

/** Records that staff exported the payout list (it holds account numbers). */
export function recordPayoutExport(db: Db, actor: Account, count: number) {
  return recordAudit(db, actor, {
    entityType: 'payouts',
    entityId: null,
    action: 'export',
    changes: { cards: { from: null, to: count } },
  });
}
