import { asc, eq } from 'drizzle-orm';
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
import { paymentMethods, transactions, users } from '../../db/schema';
import {
  AWAITING_PAYMENT,
  HOLD_MESSAGES,
  type HoldRules,
  holdColumns,
  holdOf,
  PAYOUT_DUE_TEXT,
  payeeColumns,
  SUSPENDED_PAYOUT,
} from '../cards';

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
      amount: PAYOUT_DUE_TEXT,
      userId: transactions.userId,
      ...payeeColumns,
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .where(AWAITING_PAYMENT)
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .limit(PAYOUT_LIST_LIMIT);
  const cards: PayoutCard[] = [];
  const held: Payouts['held'] = [];
  for (const { methodHoldEnds, accountHoldEnds, standing, ...r } of rows) {
    const hold = holdOf({ methodHoldEnds, accountHoldEnds }, holds.now);
    if (standing === 'suspended' || hold) {
      held.push({
        id: r.id,
        cardType: r.cardType,
        amount: r.amount,
        userEmail: r.userEmail,
        reason: standing === 'suspended' ? 'account_suspended' : hold!.reason,
        message: standing === 'suspended' ? SUSPENDED_PAYOUT : `${HOLD_MESSAGES[hold!.reason]}.`,
        payoutHoldUntil: standing === 'suspended' ? null : hold!.until,
      });
      continue;
    }
    cards.push({
      ...r,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      payoutHoldUntil: null,
    });
  }
  return { cards, held };
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
    db.$count(transactions, AWAITING_PAYMENT),
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
