import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { PRODUCT_NAME } from '../../../shared/brand';
import type { Account } from '../../common/account';
import type { Change, CommandContext } from '../../common/command';
import { setStanding } from '../../common/standing';
import type { Db } from '../../db/client';
import { clawbacks, transactions, users } from '../../db/schema';
import { changeCard } from './change';
import { alertStaff } from './staff-alert';

/** Rejection reasons that say the card was not the seller's to sell (decision 072). */
export const FRAUD_REASONS = ['code_invalid', 'already_redeemed', 'suspected_fraud'];
const AUTO_SUSPEND_COUNT = 3;
const AUTO_SUSPEND_RULE = 'three_fraud_rejections_in_30_days';
const AUTO_SUSPEND_REASON =
  'Automatic: 3 or more cards rejected as invalid, already redeemed or suspected fraud, or taken back after payment, within 30 days, pending review';
const ACCOUNT_CLOSED_NOTE = 'Account closed';

/**
 * After a card of `userId` was rejected, or money was taken back from one (a clawback, issue 39),
 * inside the same transaction: when the rejection's reason is fraud-like, the third such rejection
 * or clawback within 30 days suspends an active account pending review (the audit names the rule)
 * and every staff member is emailed. Answers what it changed (nothing when the rule did not fire).
 */
export async function suspendOnFraudRejections(
  context: CommandContext,
  tx: Db,
  actor: Account,
  userId: string,
  cause: { rejectionReason: string | null } | 'clawback',
): Promise<Change[]> {
  if (cause !== 'clawback' && !FRAUD_REASONS.includes(cause.rejectionReason ?? '')) return [];
  const [user] = await tx
    .select({ standing: users.standing, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  if (user?.standing !== 'active') return [];
  const since = new Date(context.now() - 30 * 24 * 60 * 60 * 1000);
  const count =
    (await tx.$count(
      transactions,
      and(
        eq(transactions.userId, userId),
        eq(transactions.status, 'rejected'),
        inArray(transactions.rejectionReason, FRAUD_REASONS),
        gt(transactions.updatedAt, since),
      ),
    )) +
    (await tx.$count(clawbacks, and(eq(clawbacks.userId, userId), gt(clawbacks.createdAt, since))));
  if (count < AUTO_SUSPEND_COUNT) return [];
  const changed = await setStanding(
    context,
    tx,
    actor,
    userId,
    'suspend',
    { reason: AUTO_SUSPEND_REASON },
    { rule: { from: null, to: AUTO_SUSPEND_RULE }, rejections: { from: null, to: count } },
  );
  await alertStaff(tx, context, {
    subject: `${PRODUCT_NAME}: a customer was suspended automatically`,
    lines: [
      `${user.email} was suspended automatically: ${count} of their cards were rejected as invalid, already redeemed or suspected fraud, or taken back after payment, within 30 days.`,
      'Review the account in the portal (Users), and reinstate it if the rule was wrong.',
    ],
  });
  return changed;
}

/**
 * A closed account's cards still waiting for review are rejected (decision 072), each locked and
 * changed on its own, inside the closing's transaction (its live changes cover the cards).
 */
export async function rejectPendingCards(
  context: CommandContext,
  tx: Db,
  actor: Account,
  userId: string,
): Promise<void> {
  const pending = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.status, 'pending')))
    .orderBy(asc(transactions.id))
    .for('update');
  for (const card of pending) {
    await changeCard(
      context,
      tx,
      actor,
      card,
      { status: 'rejected', rejectionReason: 'other', rejectionNote: ACCOUNT_CLOSED_NOTE },
      'update',
      {
        status: { from: 'pending', to: 'rejected' },
        rejectionReason: { from: card.rejectionReason, to: 'other' },
        rejectionNote: { from: card.rejectionNote, to: ACCOUNT_CLOSED_NOTE },
      },
    );
  }
}
