import { and, asc, eq, sql } from 'drizzle-orm';
import type { StaffMember } from '../../../shared/staff';
import { isStaffRole, type StaffRole } from '../../../shared/staff-roles';
import { findToken } from '../../common/tokens';
import type { Db } from '../../db/client';
import { admins, twoFactor } from '../../db/schema';

/** Every staff account, oldest first, with its role, two-factor state and last sign-in. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .select({
      id: admins.id,
      email: admins.email,
      firstName: admins.firstName,
      lastName: admins.lastName,
      role: admins.role,
      active: admins.active,
      lastSignInAt: admins.lastSignInAt,
      invitationPending: sql<boolean>`${admins.password} = ''`,
      twoFactorEnabled: sql<boolean>`${twoFactor.enabledAt} is not null`,
    })
    .from(admins)
    .leftJoin(
      twoFactor,
      and(eq(twoFactor.accountKind, 'admin'), eq(twoFactor.accountId, admins.id)),
    )
    .orderBy(asc(admins.createdAt), asc(admins.id));
  return rows.map((row) => ({
    ...row,
    role: isStaffRole(row.role) ? row.role : 'reviewer',
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    invitationPending: row.invitationPending === true,
    twoFactorEnabled: row.twoFactorEnabled === true,
  }));
}

/**
 * What an invitation link is for (issue 43, item 14): its email and role, while it is unused and
 * unexpired; undefined otherwise. Nothing is used up.
 */
export async function invitationOf(
  db: Db,
  token: string,
  now: number,
): Promise<{ email: string; role: StaffRole } | undefined> {
  const found = await findToken(db, 'staff_invitation', token);
  if (!found || found.usedAt || found.expiresAt.getTime() <= now) return undefined;
  const [row] = await db
    .select({ email: admins.email, role: admins.role, password: admins.password })
    .from(admins)
    .where(eq(admins.id, found.accountId));
  // Accepted already: the row has its password.
  if (!row || !isStaffRole(row.role) || row.password !== '') return undefined;
  return { email: row.email, role: row.role };
}
