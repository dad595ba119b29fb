import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  currentUserSchema,
  updateProfileSchema,
  verifyEmailSchema,
} from '../../../shared/auth-schemas';
import { toCurrentUser } from '../../common/account';
import { isConfirmed } from '../../common/accounts';
import { badRequest } from '../../common/http-error';
import { findToken, sendVerificationEmail } from '../../common/tokens';
import { accountOf, requireCustomer, requireSignedIn } from '../../plugins/auth';
import { HOUR, tooMany } from '../../plugins/rate-limit';
import { confirmEmail, updateProfile } from './commands';

const BAD_LINK = 'This link is invalid or has expired. Sign in and ask for a new one.';
const messageSchema = z.object({ message: z.string() });

export default async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.patch(
    '/api/profile',
    {
      onRequest: requireSignedIn,
      schema: { body: updateProfileSchema, response: { 200: currentUserSchema } },
    },
    async (request) => {
      const account = accountOf(request);
      const updated = await app.run((context) => updateProfile(context, account, request.body));
      request.account = updated;
      return toCurrentUser(updated);
    },
  );

  r.post(
    '/api/email/verify',
    { schema: { body: verifyEmailSchema, response: { 200: messageSchema } } },
    async (request) => {
      const { token } = request.body;
      const used = await app.run((context) => confirmEmail(context, token));
      if (used) {
        request.log.info({ event: 'email_verified', account: used }, 'email verified');
        return { message: 'Thank you: your email address is confirmed.' };
      }
      // A second click on a link that worked: say so rather than call it broken.
      const earlier = await findToken(app.db, 'email_verification', token);
      if (earlier?.usedAt && (await isConfirmed(app.db, earlier.accountId, earlier.email))) {
        return { message: 'Your email address is already confirmed.' };
      }
      throw badRequest(BAD_LINK, 'token');
    },
  );

  r.post(
    '/api/email/verify/resend',
    { onRequest: requireCustomer, schema: { response: { 200: messageSchema } } },
    async (request, reply) => {
      const account = accountOf(request);
      if (account.emailVerified) return { message: 'Your email address is already confirmed.' };
      const count = await app.counters.hit(`verify-email:${account.id}`, HOUR);
      if (count.current > app.config.limits.accountEmailsPerHour) {
        throw tooMany(reply, count.ttl, 'We have sent several links in the last hour.');
      }
      await sendVerificationEmail(app, account);
      return { message: `We sent a new link to ${account.email}. It works for 48 hours.` };
    },
  );
}
