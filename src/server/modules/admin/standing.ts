import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { PRODUCT_NAME } from '../../../shared/brand';
import type { Account } from '../../common/account';
import { type AuditChanges, auditCard, recordAudit } from '../../common/audit';
import {
  accountChanged,
  type Change,
  type CommandContext,
  change,
  type Outcome,
  STAFF,
} from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
import { notify } from '../../common/notify';
import { alertStaff } from '../../common/staff-alert';
import type { Db } from '../../db/client';
import { transactions, users } from '../../db/schema';
import { queueMail } from '../../mail/queue';
import { deleteAccountSessions } from '../sessions';

export type StandingAction = 'suspend' | 'close' | 'reinstate';
const STANDING_AFTER = { suspend: 'suspended', close: 'closed', reinstate: 'active' } as const;

/** Rejection reasons that say the card was not the seller's to sell (decision 072). */
export const FRAUD_REASONS = ['code_invalid', 'already_redeemed', 'suspected_fraud'] as const;
export const AUTO_SUSPEND_COUNT = 3;
export const AUTO_SUSPEND_RULE = 'three_fraud_rejections_in_30_days';
const AUTO_SUSPEND_REASON =
  'Automatic: 3 or more cards rejected as invalid, already redeemed or suspected fraud within 30 days, pending review';
export const ACCOUNT_CLOSED_NOTE = 'Account closed';

/**
 * Changes a customer's standing inside `tx`: the row, the audit, the email, the in-app notice;
 * closing also ends every session and rejects the cards still pending. Answers what changed.
 */
async function applyStanding(
  context: CommandContext,
  tx: Db,
  actor: Account,
  userId: string,
  action: StandingAction,
  input: { reason?: string; note?: string | null },
  extra: AuditChanges = {},
): Promise<Change[]> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
  if (!user) throw notFound('User not found');
  if (user.isAdmin) throw new HttpError(409, 'Staff accounts are not suspended or closed here');
  const next = STANDING_AFTER[action];
  if (user.standing === next) throw new HttpError(409, `This account is already ${next}`);
  const now = new Date(context.now());
  const reason = action === 'reinstate' ? null : (input.reason?.trim() ?? null);
  const note = action === 'reinstate' ? null : input.note?.trim() || null;
  await tx
    .update(users)
    .set({
      standing: next,
      standingReason: reason,
      standingNote: note,
      standingChangedAt: now,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
  const changes: AuditChanges = { standing: { from: user.standing, to: next }, ...extra };
  if (reason || user.standingReason) changes.reason = { from: user.standingReason, to: reason };
  if (note || user.standingNote) changes.note = { from: user.standingNote, to: note };
  await recordAudit(tx, actor, { entityType: 'user', entityId: userId, action, changes });
  await queueMail(tx, context.now(), user.email, 'account-standing', {
    firstName: user.firstName,
    standing: next,
    reason,
    url: `${context.config.appUrl}/`,
  });
  const changed: Change[] = [
    ...accountChanged({ kind: 'user', id: userId }),
    change([userId, STAFF], ['transactions', 'queue', 'admin-stats', 'users']),
  ];
  if (action === 'close') {
    const pending = await tx
      .update(transactions)
      .set({
        status: 'rejected',
        rejectionReason: 'other',
        rejectionNote: ACCOUNT_CLOSED_NOTE,
        updatedAt: sql`now()`,
      })
      .where(and(eq(transactions.userId, userId), eq(transactions.status, 'pending')))
      .returning({ id: transactions.id });
    for (const card of pending) {
      await auditCard(tx, actor, card.id, 'update', {
        status: { from: 'pending', to: 'rejected' },
        rejectionReason: { from: null, to: 'other' },
        rejectionNote: { from: null, to: ACCOUNT_CLOSED_NOTE },
      });
    }
    const ended = await deleteAccountSessions(tx, { kind: 'user', id: userId });
    changed.push({ sessionsEnded: ended });
  } else {
    changed.push(
      await notify(context, tx, userId, {
        kind: 'account',
        title: next === 'active' ? 'Your account is active again' : 'Your account is suspended',
        body:
          next === 'active'
            ? 'You can submit cards, change payment methods and be paid again.'
            : `${reason ? `Reason: ${reason}. ` : ''}You can still read your history, chat with us and open tickets; contact support to appeal.`,
        link: '/support',
      }),
    );
  }
  return changed;
}

/** Staff suspend, close or reinstate a customer (decision 072); audited and emailed. */
export async function changeStanding(
  context: CommandContext,
  actor: Account,
  userId: string,
  action: StandingAction,
  input: { reason?: string; note?: string | null } = {},
): Promise<Outcome<string>> {
  return context.db.transaction(async (tx) => ({
    value: STANDING_AFTER[action],
    changed: await applyStanding(context, tx, actor, userId, action, input),
  }));
}

/**
 * After a card of `userId` was rejected as fraud-like, inside the same transaction: the third such
 * rejection within 30 days suspends an active account pending review (the audit names the rule)
 * and every staff member is emailed. Answers what it changed (nothing when the rule did not fire).
 */
export async function suspendOnFraudRejections(
  context: CommandContext,
  tx: Db,
  actor: Account,
  userId: string,
): Promise<Change[]> {
  const [user] = await tx
    .select({ standing: users.standing, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  if (user?.standing !== 'active') return [];
  const since = new Date(context.now() - 30 * 24 * 60 * 60 * 1000);
  const count = await tx.$count(
    transactions,
    and(
      eq(transactions.userId, userId),
      eq(transactions.status, 'rejected'),
      inArray(transactions.rejectionReason, [...FRAUD_REASONS]),
      gt(transactions.updatedAt, since),
    ),
  );
  if (count < AUTO_SUSPEND_COUNT) return [];
  const changed = await applyStanding(
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
      `${user.email} was suspended automatically: ${count} of their cards were rejected as invalid, already redeemed or suspected fraud within 30 days.`,
      'Review the account in the portal (Users), and reinstate it if the rule was wrong.',
    ],
  });
  return changed;
}
