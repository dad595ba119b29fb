import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { queueMail } from '../mail/queue';
import type { Account } from './account';
import { type AuditChanges, recordAudit } from './audit';
import { accountChanged, type Change, type CommandContext, change, STAFF } from './command';
import { HttpError, notFound } from './http-error';
import { notify } from './notify';

export const SUSPENDED_MESSAGE =
  'Your account is suspended: you cannot submit cards, change payment methods or be paid while it is. You can still read your history, chat with us and open tickets; contact support to appeal.';
export const CLOSED_MESSAGE = 'This account is closed.';

/** The refusal of a write a suspended or closed customer may not make (decision 072). */
export function accountNotActive(standing: string): HttpError {
  return standing === 'closed'
    ? new HttpError(403, CLOSED_MESSAGE, undefined, { code: 'account_closed' })
    : new HttpError(403, SUSPENDED_MESSAGE, undefined, { code: 'account_suspended' });
}

export type StandingAction = 'suspend' | 'close' | 'reinstate';
export const STANDING_AFTER = {
  suspend: 'suspended',
  close: 'closed',
  reinstate: 'active',
} as const;

/**
 * Changes a customer's standing inside `tx` (decision 072): the row, the audit, the email and,
 * unless the account closes, the in-app notice. Staff change it (admin), and so does the rule
 * on fraud-like rejections (cards); what closing does besides (sessions ended, pending cards
 * rejected) is the caller's. Answers what changed.
 */
export async function setStanding(
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
  if (action !== 'close') {
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
