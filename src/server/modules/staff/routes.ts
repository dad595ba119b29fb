import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema } from '../../../shared/auth-schemas';
import {
  acceptStaffInvitationSchema,
  previewStaffInvitationSchema,
  staffInvitationPreviewSchema,
  staffInvitationSchema,
  staffMemberSchema,
  updateStaffSchema,
} from '../../../shared/staff';
import { toCurrentUser } from '../../common/account';
import { HttpError, onId } from '../../common/http-error';
import { assertGoodPassword, hashPassword } from '../../common/passwords';
import { accountOf } from '../../plugins/auth';
import {
  acceptStaffInvitation,
  BAD_INVITATION,
  inviteStaff,
  resendStaffInvitation,
  updateStaff,
} from './commands';
import { invitationOf, listStaff } from './queries';

/** Staff management (issue 21, decision 077): owners only, through the `staff.manage` capability. */
export default async function staffRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/staff',
    {
      config: { capability: 'staff.manage' },
      schema: { response: { 200: z.array(staffMemberSchema) } },
    },
    async () => listStaff(app.db),
  );

  r.post(
    '/api/admin/staff/invitations',
    {
      config: { capability: 'staff.manage' },
      schema: { body: staffInvitationSchema, response: { 201: staffMemberSchema } },
    },
    async (request, reply) => {
      const { id } = await app.run((context) =>
        inviteStaff(context, accountOf(request), request.body),
      );
      // The email was queued with the invitation's commit: send it now.
      app.mail.kick();
      const member = (await listStaff(app.db)).find((m) => m.id === id)!;
      return reply.code(201).send(member);
    },
  );

  r.patch(
    '/api/admin/staff/:id',
    onId('staff.manage', 'Staff member not found', {
      body: updateStaffSchema,
      response: { 200: staffMemberSchema },
    }),
    async (request) => {
      const { id } = request.params;
      await app.run((context) => updateStaff(context, accountOf(request), id, request.body));
      return (await listStaff(app.db)).find((m) => m.id === id)!;
    },
  );

  r.post(
    '/api/admin/staff/:id/invitation',
    onId('staff.manage', 'Staff member not found', { response: { 200: staffMemberSchema } }),
    async (request) => {
      const { id } = request.params;
      await app.run((context) => resendStaffInvitation(context, accountOf(request), id));
      app.mail.kick();
      return (await listStaff(app.db)).find((m) => m.id === id)!;
    },
  );

  r.post(
    '/api/staff-invitations/preview',
    {
      schema: {
        body: previewStaffInvitationSchema,
        response: { 200: staffInvitationPreviewSchema },
      },
    },
    async (request) => {
      const found = await invitationOf(app.db, request.body.token, app.now());
      if (!found) throw new HttpError(400, BAD_INVITATION, { token: BAD_INVITATION });
      return found;
    },
  );

  r.post(
    '/api/staff-invitations/accept',
    { schema: { body: acceptStaffInvitationSchema, response: { 200: currentUserSchema } } },
    async (request) => {
      assertGoodPassword(request.body.password, 'password');
      const hash = await hashPassword(request.body.password, app.config.bcryptCost);
      const account = await app.run((context) =>
        acceptStaffInvitation(context, request.body, hash),
      );
      request.log.info(
        { event: 'staff_invitation_accepted', account: account.id },
        'invitation accepted',
      );
      return toCurrentUser(account);
    },
  );
}
