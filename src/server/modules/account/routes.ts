import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeEmailSchema,
  currentUserSchema,
  updateProfileSchema,
  verifyEmailSchema,
} from '../../../shared/auth-schemas';
import { emailPreferencesSchema } from '../../../shared/email-preferences';
import { toCurrentUser } from '../../common/account';
import { isConfirmed } from '../../common/accounts';
import { badRequest, HttpError } from '../../common/http-error';
import { findToken, sendVerificationEmail } from '../../common/tokens';
import { readUnsubscribeToken } from '../../mail/unsubscribe';
import { accountOf, requireCustomer, requireSignedIn } from '../../plugins/auth';
import { confirmOwnPassword } from '../../plugins/password-confirm';
import { HOUR, tooMany } from '../../plugins/rate-limit';
import {
  confirmEmail,
  requestEmailChange,
  setEmailPreferences,
  unsubscribe,
  updateProfile,
} from './commands';
import { emailPreferencesOf } from './queries';
import { confirmPage, donePage, invalidPage } from './unsubscribe-page';

const BAD_LINK = 'This link is invalid or has expired. Sign in and ask for a new one.';
const messageSchema = z.object({ message: z.string() });
const INVALID_UNSUBSCRIBE =
  'This unsubscribe link is not valid. Sign in and choose your emails in Profile.';
const unsubscribeQuery = z.object({ token: z.string().max(300).optional() });

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

  // A new email address (issue 22, item 3): the password, then a link to the new address.
  r.post(
    '/api/account/email',
    {
      onRequest: requireCustomer,
      schema: { body: changeEmailSchema, response: { 202: messageSchema } },
    },
    async (request, reply) => {
      const account = accountOf(request);
      await confirmOwnPassword(app, reply, account, request.body.password);
      // Each request mails the address given: a few an hour, so no one mails a stranger in bulk.
      const sent = await app.counters.hit(`email-change:${account.id}`, HOUR);
      if (sent.current > app.config.limits.accountEmailsPerHour) {
        throw tooMany(reply, sent.ttl, 'We have sent several links in the last hour.');
      }
      await app.run((context) => requestEmailChange(context, account, request.body.email));
      app.mail.kick();
      return reply.code(202).send({
        message: `We sent a link to ${request.body.email.trim().toLowerCase()}. Open it to use that address; until then your account keeps ${account.email}.`,
      });
    },
  );

  r.post(
    '/api/email/verify',
    { schema: { body: verifyEmailSchema, response: { 200: messageSchema } } },
    async (request) => {
      const { token } = request.body;
      const used = await app.run((context) => confirmEmail(context, token));
      // An email change tells the old address at once.
      app.mail.kick();
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

  r.get(
    '/api/account/email-preferences',
    {
      onRequest: requireCustomer,
      config: { live: { topic: 'account' } },
      schema: { response: { 200: emailPreferencesSchema } },
    },
    async (request) => {
      const preferences = await emailPreferencesOf(app.db, accountOf(request).id);
      if (!preferences) throw new HttpError(401, 'Unauthorized');
      return preferences;
    },
  );

  r.put(
    '/api/account/email-preferences',
    {
      onRequest: requireCustomer,
      schema: { body: emailPreferencesSchema, response: { 200: emailPreferencesSchema } },
    },
    async (request) => {
      const account = accountOf(request);
      return app.run((context) => setEmailPreferences(context, account, request.body));
    },
  );

  // One-click unsubscribe (RFC 8058): mail programs POST `List-Unsubscribe=One-Click` as a form
  // from their own servers, so this route takes forms and any origin; the signed token is the
  // only credential, and it can only turn one kind of email off.
  await app.register(async (scoped) => {
    scoped.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, body),
    );
    const s = scoped.withTypeProvider<ZodTypeProvider>();
    s.post(
      '/api/unsubscribe',
      {
        config: { crossSite: true },
        // JSON to a mail program, a page to a browser: no one response schema.
        schema: { querystring: unsubscribeQuery },
      },
      async (request, reply) => {
        const html = wantsHtml(request.headers.accept);
        const target = readUnsubscribeToken(app.config.sessionSecret, request.query.token ?? '');
        if (!target) {
          if (html) return reply.code(400).type('text/html; charset=utf-8').send(invalidPage());
          throw badRequest(INVALID_UNSUBSCRIBE, 'token');
        }
        await app.run((context) => unsubscribe(context, target.userId, target.kind));
        request.log.info(
          { event: 'unsubscribed', account: target.userId, kind: target.kind },
          'unsubscribed from an optional email',
        );
        if (html) return reply.type('text/html; charset=utf-8').send(donePage(target.kind));
        return {
          unsubscribed: true as const,
          kind: target.kind,
          message: 'You are unsubscribed from these emails.',
        };
      },
    );
    s.get(
      '/api/unsubscribe',
      { schema: { querystring: unsubscribeQuery } },
      async (request, reply) => {
        const token = request.query.token ?? '';
        const target = readUnsubscribeToken(app.config.sessionSecret, token);
        if (!target) {
          // A browser gets a page; anything else the JSON every error has.
          if (!wantsHtml(request.headers.accept)) throw badRequest(INVALID_UNSUBSCRIBE, 'token');
          return reply.code(400).type('text/html; charset=utf-8').send(invalidPage());
        }
        return reply.type('text/html; charset=utf-8').send(confirmPage(target.kind, token));
      },
    );
  });
}

/** A browser (the confirmation page's form) rather than a mail program's one-click POST. */
const wantsHtml = (accept: string | undefined) => Boolean(accept?.includes('text/html'));
