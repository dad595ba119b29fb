import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SignInInput, signInSchema, signUpSchema } from '../../../shared/auth-schemas';
import { users } from '../../db/schema';
import { STAFF } from '../../live/hub';
import {
  type Account,
  currentAccount,
  requireSignedIn,
  toAccount,
  toCurrentUser,
  UNAUTHORIZED,
} from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { HOUR, limit } from '../../plugins/rate-limit';
import { endSession, type Principal, startSession } from '../../plugins/session';
import {
  checkPassword,
  findAdminByEmail,
  findUserByEmail,
  hashPassword,
  isUniqueViolation,
  normalizeEmail,
} from './accounts';
import { SignInThrottle } from './throttle';

const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
});

const INVALID_CREDENTIALS = 'Invalid email or password';

export default async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { bcryptCost } = app.config;
  const throttle = new SignInThrottle(app.counters, app.config.limits);

  /** A new session at every sign-in: the one the browser had before, if any, is ended. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, account: Account) {
    await startSession(request, reply, account);
    request.account = account;
    request.log.info({ event: 'signin', account: account.id, kind: account.kind }, 'signed in');
    return toCurrentUser(account);
  }

  /** Sign-out, logged with the account it ends (read before the session goes). */
  async function signOut(request: FastifyRequest, reply: FastifyReply) {
    const account = await currentAccount(request);
    await endSession(request, reply);
    if (account) {
      request.log.info({ event: 'signout', account: account.id, kind: account.kind }, 'signed out');
    }
  }

  /** The account whose password this is, or 401 (429 when guessing, see throttle.ts). */
  async function authenticate(
    kind: Principal['kind'],
    request: FastifyRequest<{ Body: SignInInput }>,
    reply: FastifyReply,
  ) {
    const email = normalizeEmail(request.body.email);
    const throttled = (error: unknown) => {
      request.log.warn(
        { event: 'signin_throttled', kind, ip: request.ip },
        'sign-in refused (429)',
      );
      throw error;
    };
    const attempt = await throttle.check(reply, kind, email, request.ip).catch(throttled);
    const row =
      kind === 'user'
        ? await findUserByEmail(app.db, email)
        : await findAdminByEmail(app.db, email);
    if (!(await checkPassword(request.body.password, row?.password, bcryptCost)) || !row) {
      // The account when there is one; an unknown email is not written to the log.
      request.log.info(
        { event: 'signin_failed', kind, account: row?.id ?? null, ip: request.ip },
        'sign-in failed',
      );
      await throttle.failed(reply, kind, email, request.ip, attempt).catch(throttled);
      throw new HttpError(401, INVALID_CREDENTIALS);
    }
    return row;
  }

  r.post(
    '/api/signup',
    {
      config: {
        rateLimit: limit(
          'signup',
          app.config.limits.signupsPerAddress,
          HOUR,
          (request) => request.ip,
          'Too many sign-ups from your network.',
        ),
      },
      schema: { body: signUpSchema, response: { 200: currentUserSchema } },
    },
    async (request, reply) => {
      const { email, password, firstName, lastName } = request.body;
      if (await findUserByEmail(app.db, email)) throw accountExists();
      try {
        const [row] = await app.db
          .insert(users)
          .values({
            email: normalizeEmail(email),
            password: await hashPassword(password, bcryptCost),
            firstName,
            lastName,
          })
          .returning();
        const account = toAccount('user', row!);
        app.live.changed([STAFF], ['users', 'admin-stats']);
        return signIn(request, reply, account);
      } catch (error) {
        if (isUniqueViolation(error)) throw accountExists();
        throw error;
      }
    },
  );

  r.post(
    '/api/signin',
    { schema: { body: signInSchema, response: { 200: currentUserSchema } } },
    async (request, reply) =>
      signIn(request, reply, toAccount('user', await authenticate('user', request, reply))),
  );

  r.post(
    '/api/admin/signin',
    { schema: { body: signInSchema, response: { 200: currentUserSchema } } },
    async (request, reply) =>
      signIn(request, reply, toAccount('admin', await authenticate('admin', request, reply))),
  );

  r.post('/api/logout', async (request, reply) => {
    await signOut(request, reply);
    return { success: true };
  });

  r.get('/api/logout', async (request, reply) => {
    await signOut(request, reply);
    return reply.redirect('/');
  });

  r.get('/api/login', async (_request, reply) => reply.redirect('/?auth=signin'));

  r.get(
    '/api/auth/user',
    { onRequest: requireSignedIn, schema: { response: { 200: currentUserSchema } } },
    async (request) => {
      const account = await currentAccount(request);
      if (!account) throw new HttpError(401, UNAUTHORIZED);
      return toCurrentUser(account);
    },
  );
}

function accountExists() {
  return new HttpError(409, 'An account with this email already exists', {
    email: 'An account with this email already exists',
  });
}
