import { and, asc, eq, sql } from 'drizzle-orm';
import type { StaffMember } from '../../../shared/staff';
import { isStaffRole } from '../../../shared/staff-roles';
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
