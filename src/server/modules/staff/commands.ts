import { and, eq, sql } from 'drizzle-orm';
import {
  type AcceptStaffInvitationInput,
  LAST_OWNER,
  type StaffInvitationInput,
  type UpdateStaffInput,
} from '../../../shared/staff';
import { isStaffRole, STAFF_ROLE_LABELS, type StaffRole } from '../../../shared/staff-roles';
import { type Account, toAccount } from '../../common/account';
import { isUniqueViolation, normalizeEmail } from '../../common/accounts';
import { recordAudit } from '../../common/audit';
import {
  accountChanged,
  type Change,
  type CommandContext,
  change,
  type Outcome,
} from '../../common/command';
import { HttpError, lockOr404 } from '../../common/http-error';
import { consumeToken, issueToken, revokeTokens } from '../../common/tokens';
import type { Db } from '../../db/client';
import { admins } from '../../db/schema';
import { queueMail } from '../../mail/queue';
import { deleteAccountSessions } from '../sessions';

/** An invitation's row has no password until it is accepted (decision 077). */
const NO_PASSWORD = '';

export const STAFF_EXISTS = 'A staff account with this email already exists';
export const BAD_INVITATION =
  'This invitation link is not valid or has expired. Ask an owner for a new one.';

/**
 * An owner invites a staff member: an inactive row with the role and no password, and a link
 * (72 hours, single use) mailed with the same commit. Inviting an address whose invitation is
 * still pending sends a new link (the old one stops working).
 */
export async function inviteStaff(
  context: CommandContext,
  actor: Account,
  input: StaffInvitationInput,
): Promise<Outcome<{ id: string }>> {
  const email = normalizeEmail(input.email);
  const now = context.now();
  try {
    return await context.db.transaction(async (tx) => {
      const [existing] = await tx
        .select()
        .from(admins)
        .where(eq(sql`lower(${admins.email})`, email))
        .for('update');
      if (existing && existing.password !== NO_PASSWORD) {
        throw new HttpError(409, STAFF_EXISTS, { email: STAFF_EXISTS });
      }
      const [row] = existing
        ? await tx
            .update(admins)
            .set({ role: input.role, updatedAt: new Date(now) })
            .where(eq(admins.id, existing.id))
            .returning()
        : await tx
            .insert(admins)
            .values({ email, password: NO_PASSWORD, role: input.role, active: false })
            .returning();
      await sendInvitation(context, tx, actor, row!.id, email, input.role);
      await recordAudit(tx, actor, {
        entityType: 'staff',
        entityId: row!.id,
        action: 'invite',
        changes: {
          email: { from: null, to: email },
          role: { from: existing?.role ?? null, to: input.role },
        },
      });
      return { value: { id: row!.id }, changed: [] };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, STAFF_EXISTS, { email: STAFF_EXISTS });
    throw error;
  }
}

/** A new invitation link for the staff row `id`, mailed with the same commit (the old one ends). */
async function sendInvitation(
  context: CommandContext,
  tx: Db,
  actor: Account,
  id: string,
  email: string,
  role: StaffRole,
) {
  const now = context.now();
  const token = await issueToken(tx, 'staff_invitation', { kind: 'admin', id }, email, now);
  await queueMail(tx, now, email, 'staff-invitation', {
    link: `${context.config.appUrl}/staff-invitation?token=${token}`,
    role: STAFF_ROLE_LABELS[role].toLowerCase(),
    invitedBy: [actor.firstName, actor.lastName].filter(Boolean).join(' ') || actor.email,
  });
}

export const NOT_PENDING = 'This invitation was already accepted';

/**
 * An owner sends a pending invitation again (issue 43, item 14): a new link, the old one ends, and
 * the resend is audited. An accepted invitation is 409 `not_pending`; an unknown id 404.
 */
export async function resendStaffInvitation(
  context: CommandContext,
  actor: Account,
  id: string,
): Promise<Outcome<{ id: string }>> {
  return context.db.transaction(async (tx) => {
    const row = await lockOr404(
      tx.select().from(admins).where(eq(admins.id, id)).for('update'),
      'Staff member not found',
    );
    if (row.password !== NO_PASSWORD) {
      throw new HttpError(409, NOT_PENDING, undefined, { code: 'not_pending' });
    }
    const role = isStaffRole(row.role) ? row.role : 'reviewer';
    await sendInvitation(context, tx, actor, row.id, row.email, role);
    await recordAudit(tx, actor, {
      entityType: 'staff',
      entityId: row.id,
      action: 'resend_invitation',
      changes: { invitation: { from: null, to: `sent again to ${row.email}` } },
    });
    return { value: { id: row.id }, changed: [] };
  });
}

/**
 * The invitee opens the link: the token is used up (one statement, so one of two racing
 * requests wins), the name and password set, the account active. Two-factor is enrolled at the
 * first sign-in, as for every staff account.
 */
export async function acceptStaffInvitation(
  context: CommandContext,
  input: AcceptStaffInvitationInput,
  passwordHash: string,
): Promise<Outcome<Account>> {
  const now = context.now();
  return context.db.transaction(async (tx) => {
    const used = await consumeToken(tx, 'staff_invitation', input.token, now);
    if (!used) throw new HttpError(400, BAD_INVITATION, { token: BAD_INVITATION });
    const [row] = await tx
      .update(admins)
      .set({
        password: passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        active: true,
        updatedAt: new Date(now),
      })
      .where(and(eq(admins.id, used.accountId), eq(admins.password, NO_PASSWORD)))
      .returning();
    if (!row) throw new HttpError(400, BAD_INVITATION, { token: BAD_INVITATION });
    const account = toAccount('admin', row);
    await recordAudit(tx, account, {
      entityType: 'staff',
      entityId: row.id,
      action: 'accept_invitation',
      changes: { active: { from: false, to: true } },
    });
    return { value: account, changed: [] };
  });
}

/**
 * An owner changes a staff member's role or deactivates (or reactivates) them. The active owners'
 * rows are locked first, so two demotions sent at once cannot both pass the last-owner check.
 * Deactivation deletes every session of the account; the `sessionsEnded` change tells every
 * instance once committed. A role change makes every session read the account again.
 */
export async function updateStaff(
  context: CommandContext,
  actor: Account,
  id: string,
  input: UpdateStaffInput,
): Promise<Outcome<{ id: string }>> {
  const now = context.now();
  return context.db.transaction(async (tx) => {
    const owners = await tx
      .select({ id: admins.id })
      .from(admins)
      .where(and(eq(admins.role, 'owner'), eq(admins.active, true)))
      .for('update');
    const row = await lockOr404(
      tx.select().from(admins).where(eq(admins.id, id)).for('update'),
      'Staff member not found',
    );
    const next = { role: input.role ?? row.role, active: input.active ?? row.active };
    if (next.active && !row.active && row.password === NO_PASSWORD) {
      throw new HttpError(409, 'This invitation has not been accepted yet.', undefined, {
        code: 'invitation_pending',
      });
    }
    const wasActiveOwner = row.role === 'owner' && row.active;
    const staysActiveOwner = next.role === 'owner' && next.active;
    if (wasActiveOwner && !staysActiveOwner && owners.length <= 1) {
      throw new HttpError(409, LAST_OWNER, undefined, { code: 'last_owner' });
    }
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (next.role !== row.role) changes.role = { from: row.role, to: next.role };
    if (next.active !== row.active) changes.active = { from: row.active, to: next.active };
    if (Object.keys(changes).length === 0) return { value: { id }, changed: [] };
    await tx
      .update(admins)
      .set({ role: next.role, active: next.active, updatedAt: new Date(now) })
      .where(eq(admins.id, id));
    const principal = { kind: 'admin' as const, id };
    const changed: Change[] = [...accountChanged(principal), change([id], ['account'])];
    if (!next.active) {
      const ended = await deleteAccountSessions(tx, principal);
      await revokeTokens(tx, ['staff_invitation', 'password_reset', 'signin_link'], principal, now);
      changed.push({ sessionsEnded: ended });
      changes.sessions = { from: ended.length, to: 0 };
    }
    await recordAudit(tx, actor, {
      entityType: 'staff',
      entityId: id,
      action: next.active ? 'update' : 'deactivate',
      changes,
    });
    return { value: { id }, changed };
  });
}
