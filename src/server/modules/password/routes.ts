import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordSchema,
  checkResetLinkSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
} from '../../../shared/auth-schemas';
import type { Principal } from '../../common/account';
import { findAdminByEmail, findUserByEmail, normalizeEmail } from '../../common/accounts';
import { badRequest } from '../../common/http-error';
import { assertGoodPassword, hashPassword } from '../../common/passwords';
import { findToken, issueToken } from '../../common/tokens';
import { accountOf, requireSignedIn } from '../../plugins/auth';
import { confirmOwnPassword } from '../../plugins/password-confirm';
import { HOUR, limit } from '../../plugins/rate-limit';
import { BAD_LINK, changePassword, resetPassword } from './commands';

export const FORGOT_ANSWER =
  'If an account uses that email, we have sent it a link to choose a new password. The link works for 30 minutes.';
const WRONG_CURRENT = 'Current password is incorrect';

const messageSchema = z.object({ message: z.string() });

export default async function passwordRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Mails a reset link to each account (customer, staff) that uses `email`, at most
   * `accountEmailsPerHour` per account; runs after the answer has gone, so the answer and its
   * timing say nothing about whether the address has an account.
   */
  async function mailResetLinks(email: string) {
    const found: { principal: Principal; email: string; firstName: string | null }[] = [];
    const user = await findUserByEmail(app.db, email);
    if (user) {
      found.push({ principal: { kind: 'user', id: user.id }, email, firstName: user.firstName });
    }
    const admin = await findAdminByEmail(app.db, email);
    if (admin) {
      found.push({ principal: { kind: 'admin', id: admin.id }, email, firstName: admin.firstName });
    }
    for (const account of found) {
      const { kind, id } = account.principal;
      const count = await app.counters.hit(`reset-email:${kind}:${id}`, HOUR);
      if (count.current > app.config.limits.accountEmailsPerHour) {
        app.log.warn({ event: 'reset_email_limited', account: id, kind }, 'reset email not sent');
        continue;
      }
      const token = await issueToken(
        app.db,
        'password_reset',
        account.principal,
        account.email,
        app.now(),
      );
      await app.mail.send(account.email, 'password-reset', {
        firstName: account.firstName,
        link: `${app.config.appUrl}/reset-password?token=${token}`,
        staff: kind === 'admin',
      });
      app.log.info({ event: 'reset_email', account: id, kind }, 'password reset link mailed');
    }
  }

  r.post(
    '/api/password/forgot',
    {
      config: {
        rateLimit: limit('password-forgot', app.config.limits),
      },
      schema: { body: forgotPasswordSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      const email = normalizeEmail(request.body.email);
      setImmediate(() => {
        mailResetLinks(email).catch((err) =>
          request.log.error({ err }, 'could not mail a password reset link'),
        );
      });
      return { message: FORGOT_ANSWER };
    },
  );

  /** A link used, replaced or expired: the same answer for each, and for a made-up one. */
  async function assertResetLinkWorks(token: string) {
    const pending = await findToken(app.db, 'password_reset', token);
    if (!pending || pending.usedAt || pending.expiresAt.getTime() <= app.now()) {
      throw badRequest(BAD_LINK, 'token');
    }
  }

  // The page the email opens asks first, so a used link says so before a password is typed.
  r.post(
    '/api/password/reset/check',
    {
      schema: {
        body: checkResetLinkSchema,
        response: { 200: z.object({ valid: z.literal(true) }) },
      },
    },
    async (request) => {
      await assertResetLinkWorks(request.body.token);
      return { valid: true as const };
    },
  );

  r.post(
    '/api/password/reset',
    {
      schema: {
        body: resetPasswordSchema,
        response: { 200: messageSchema.extend({ account: z.enum(['customer', 'staff']) }) },
      },
    },
    async (request) => {
      const { token, password } = request.body;
      await assertResetLinkWorks(token);
      assertGoodPassword(password, 'password');
      const hash = await hashPassword(password, app.config.bcryptCost);
      // Everyone who knew the old password is signed out, its other links die with it.
      const account = await app.run((context) => resetPassword(context, token, hash));
      const { principal } = account;
      await app.mail.send(account.email, 'password-changed', {
        firstName: account.firstName,
        how: 'reset',
      });
      request.log.info(
        { event: 'password_reset', account: principal.id, kind: principal.kind },
        'password reset',
      );
      return {
        message: 'Your password is changed. Sign in with your new password.',
        account: principal.kind === 'admin' ? ('staff' as const) : ('customer' as const),
      };
    },
  );

  r.post(
    '/api/password/change',
    {
      onRequest: requireSignedIn,
      schema: {
        body: changePasswordSchema,
        response: { 200: z.object({ success: z.literal(true), endedSessions: z.number() }) },
      },
    },
    async (request: FastifyRequest<{ Body: z.infer<typeof changePasswordSchema> }>, reply) => {
      const account = accountOf(request);
      const principal: Principal = { kind: account.kind, id: account.id };
      const { currentPassword, newPassword } = request.body;
      await confirmOwnPassword(app, reply, principal, currentPassword, {
        field: 'currentPassword',
        wrong: WRONG_CURRENT,
        refusal: 'Too many wrong current passwords.',
      });
      assertGoodPassword(newPassword, 'newPassword');
      const hash = await hashPassword(newPassword, app.config.bcryptCost);
      // This session stays; every other one of the account ends, those waiting for a code too.
      const endedSessions = await app.run((context) =>
        changePassword(context, principal, hash, request.session!.sid),
      );
      await app.mail.send(account.email, 'password-changed', {
        firstName: account.firstName,
        how: 'change',
      });
      request.log.info(
        { event: 'password_change', account: account.id, kind: account.kind, endedSessions },
        'password changed',
      );
      return { success: true as const, endedSessions };
    },
  );
}
