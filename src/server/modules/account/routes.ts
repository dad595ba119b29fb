import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  currentUserSchema,
  updateProfileSchema,
  verifyEmailSchema,
} from '../../../shared/auth-schemas';
import { accountKey } from '../../common/session-cache';
import { consumeToken, findToken, sendVerificationEmail } from '../../common/tokens';
import { admins, users } from '../../db/schema';
import { STAFF } from '../../live/hub';
import {
  accountOf,
  requireCustomer,
  requireSignedIn,
  toAccount,
  toCurrentUser,
} from '../../plugins/auth';
import { badRequest, HttpError } from '../../plugins/errors';
import { HOUR, tooMany } from '../../plugins/rate-limit';

const BAD_LINK = 'This link is invalid or has expired. Sign in and ask for a new one.';
const messageSchema = z.object({ message: z.string() });

export default async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Everything that shows this account learns it changed: its sessions, its pages, staff lists. */
  function accountChanged(kind: 'user' | 'admin', id: string) {
    app.live.accountChanged(accountKey({ kind, id }));
    if (kind === 'user') {
      app.live.changed([id], ['account']);
      app.live.changed([STAFF], ['users', 'queue', 'chats']);
    }
  }

  r.patch(
    '/api/profile',
    {
      onRequest: requireSignedIn,
      schema: { body: updateProfileSchema, response: { 200: currentUserSchema } },
    },
    async (request) => {
      const account = accountOf(request);
      const { firstName, lastName, emailNotifications } = request.body;
      const now = new Date(app.now());
      const names = { firstName, lastName, updatedAt: now };
      const [row] =
        account.kind === 'admin'
          ? await app.db.update(admins).set(names).where(eq(admins.id, account.id)).returning()
          : await app.db
              .update(users)
              .set({ ...names, emailNotifications })
              .where(eq(users.id, account.id))
              .returning();
      if (!row) throw new HttpError(401, 'Unauthorized');
      accountChanged(account.kind, account.id);
      const updated = toAccount(account.kind, row);
      request.account = updated;
      return toCurrentUser(updated);
    },
  );

  r.post(
    '/api/email/verify',
    { schema: { body: verifyEmailSchema, response: { 200: messageSchema } } },
    async (request) => {
      const { token } = request.body;
      const now = app.now();
      const used = await app.db.transaction(async (tx) => {
        const row = await consumeToken(tx, 'email_verification', token, now);
        if (!row) return null;
        // It confirms the address it was sent to; an address changed since is not confirmed.
        const [user] = await tx
          .update(users)
          .set({ emailVerifiedAt: new Date(now), updatedAt: new Date(now) })
          .where(and(eq(users.id, row.accountId), eq(users.email, row.email)))
          .returning({ id: users.id });
        return user ?? null;
      });
      if (used) {
        accountChanged('user', used.id);
        request.log.info({ event: 'email_verified', account: used.id }, 'email verified');
        return { message: 'Thank you: your email address is confirmed.' };
      }
      // A second click on a link that worked: say so rather than call it broken.
      const earlier = await findToken(app.db, 'email_verification', token);
      if (earlier?.usedAt) {
        const [user] = await app.db
          .select({ verifiedAt: users.emailVerifiedAt, email: users.email })
          .from(users)
          .where(eq(users.id, earlier.accountId));
        if (user?.verifiedAt && user.email === earlier.email) {
          return { message: 'Your email address is already confirmed.' };
        }
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
