import { z } from 'zod';
import { forgotPasswordSchema, newPasswordSchema, signUpSchema } from './auth-schemas';
import { STAFF_ROLES } from './staff-roles';

/** One row of GET /api/admin/staff (issue 21's contract). */
export const staffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.enum(STAFF_ROLES),
  active: z.boolean(),
  twoFactorEnabled: z.boolean(),
  lastSignInAt: z.string().nullable(),
  /** Invited and not yet accepted (inactive until then; decision 077). */
  invitationPending: z.boolean(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/** POST /api/admin/staff/invitations. */
export const staffInvitationSchema = z.object({
  email: forgotPasswordSchema.shape.email,
  role: z.enum(STAFF_ROLES, { error: 'Choose a role' }),
});
export type StaffInvitationInput = z.infer<typeof staffInvitationSchema>;

/** POST /api/staff-invitations/accept: the emailed token, a password and a name. */
export const acceptStaffInvitationSchema = z.object({
  token: z.string({ error: 'This link is not valid' }).min(1).max(200),
  password: newPasswordSchema,
  firstName: signUpSchema.shape.firstName,
  lastName: signUpSchema.shape.lastName,
});
export type AcceptStaffInvitationInput = z.infer<typeof acceptStaffInvitationSchema>;

/** PATCH /api/admin/staff/:id. */
export const updateStaffSchema = z
  .object({
    role: z.enum(STAFF_ROLES).optional(),
    active: z.boolean().optional(),
  })
  .refine((v) => v.role !== undefined || v.active !== undefined, {
    message: 'Give a role or whether the account is active',
  });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;

/** Why the last active owner cannot lose the role or be deactivated. */
export const LAST_OWNER = 'The last active owner cannot be demoted or deactivated.';
/** How long an invitation link works. */
export const STAFF_INVITATION_HOURS = 72;

/**
 * POST /api/staff-invitations/preview: what an invitation link is for, before it is accepted
 * (issue 43, item 14). The token travels in the body, not the address, so logs never hold it.
 */
export const previewStaffInvitationSchema = z.object({
  token: z.string({ error: 'This link is not valid' }).min(1).max(200),
});
export const staffInvitationPreviewSchema = z.object({
  email: z.string(),
  role: z.enum(STAFF_ROLES),
});
export type StaffInvitationPreview = z.infer<typeof staffInvitationPreviewSchema>;
