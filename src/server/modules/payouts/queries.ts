import { and, asc, eq, notExists, sql } from 'drizzle-orm';
import { fromCents } from '../../../shared/money';
import { PAYMENT_METHOD_TYPES, paymentMethodLabel } from '../../../shared/payment-methods';
import {
  PAYOUT_LIST_LIMIT,
  type PayoutCard,
  type PayoutGroup,
  type Payouts,
  sumOf,
} from '../../../shared/payouts';
import { groupBy } from '../../db/batch';
import type { Db } from '../../db/client';
import {
  achBatches,
  disbursementCards,
  paymentMethods,
  transactions,
  users,
} from '../../db/schema';
import {
  AWAITING_PAYMENT,
  HOLD_MESSAGES,
  type HoldRules,
  holdColumns,
  holdOf,
  payeeColumns,
  SUSPENDED_PAYOUT,
} from '../cards';
import { owedForCard, sellerFigures, type ToSend, toSendFor } from '../ledger';

/**
 * Waiting for payment by hand: approved and unpaid (AWAITING_PAYMENT), and in no open payout on an
 * automatic rail (issue 40), which pays it already.
 */
const PAYABLE_BY_HAND = and(
  AWAITING_PAYMENT,
  notExists(
    sql`(select 1 from ${disbursementCards} where ${disbursementCards.transactionId} = ${transactions.id} and ${disbursementCards.active})`,
  ),
);

/** The cards waiting to be paid, oldest first (paid in the order they came). */
async function payableCards(db: Db, holds: HoldRules) {
  const rows = await db
    .select({
      ...holdColumns(holds),
      standing: users.standing,
      id: transactions.id,
      createdAt: transactions.createdAt,
      updatedAt: transactions.updatedAt,
      cardType: transactions.cardType,
      cardValue: transactions.cardValue,
      status: transactions.status,
      paymentAmount: transactions.paymentAmount,
      expectedPayout: transactions.expectedPayout,
      owed: owedForCard(),
      userId: transactions.userId,
      ...payeeColumns,
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .where(PAYABLE_BY_HAND)
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .limit(PAYOUT_LIST_LIMIT);
  // What to send comes from the books: what each card is owed, less its share of what its
  // seller owes back (the netting rule, which marking it sent follows too).
  const toSend = await toSendOf(
    db,
    rows.map((r) => r.userId),
  );
  const cards: PayoutCard[] = [];
  const held: Payouts['held'] = [];
  for (const { methodHoldEnds, accountHoldEnds, standing, owed, ...r } of rows) {
    const netted = toSend.get(r.id)?.netted ?? 0;
    const amount = fromCents(owed - netted);
    const hold = holdOf({ methodHoldEnds, accountHoldEnds }, holds.now);
    if (standing === 'suspended' || hold) {
      held.push({
        id: r.id,
        cardType: r.cardType,
        amount,
        userId: r.userId,
        userEmail: r.userEmail,
        reason: standing === 'suspended' ? 'account_suspended' : hold!.reason,
        message: standing === 'suspended' ? SUSPENDED_PAYOUT : `${HOLD_MESSAGES[hold!.reason]}.`,
        payoutHoldUntil: standing === 'suspended' ? null : hold!.until,
      });
      continue;
    }
    cards.push({
      ...r,
      amount,
      netted: fromCents(netted),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      payoutHoldUntil: null,
    });
  }
  return { cards, held };
}

/**
 * The netting of the sellers who owe something back (few do): each one's cards and shares. The
 * others send what each card is owed.
 */
async function toSendOf(db: Db, userIds: string[]) {
  const figures = await sellerFigures(db, [...new Set(userIds)]);
  const shares = new Map<string, ToSend>();
  for (const [userId, f] of figures) {
    if (f.owedBack === 0) continue;
    for (const [id, share] of await toSendFor(db, userId)) shares.set(id, share);
  }
  return shares;
}

const typeOrder = (type: string | null) => {
  const at = PAYMENT_METHOD_TYPES.indexOf(type as (typeof PAYMENT_METHOD_TYPES)[number]);
  return at < 0 ? PAYMENT_METHOD_TYPES.length + (type === null ? 1 : 0) : at;
};

/**
 * The oldest cards waiting for payment (up to PAYOUT_LIST_LIMIT), grouped by payment method type
 * in the order of the type list, each group with its count and total; `more` counts the rest.
 */
export async function listPayouts(db: Db, holds: HoldRules): Promise<Payouts> {
  const [{ cards, held }, waiting] = await Promise.all([
    payableCards(db, holds),
    db.$count(transactions, PAYABLE_BY_HAND),
  ]);
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
    more: Math.max(0, waiting - cards.length - held.length),
    held,
  };
}

/** An ACH batch's NACHA file as it was built, or undefined. */
export async function achBatchFile(db: Db, id: string) {
  const [row] = await db
    .select({ fileText: achBatches.fileText, createdAt: achBatches.createdAt })
    .from(achBatches)
    .where(eq(achBatches.id, id));
  return row;
}
