import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signInSchema, signUpSchema } from '../../../shared/auth-schemas';
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
import { endSession, startSession } from '../../plugins/session';
import {
  checkPassword,
  findAdminByEmail,
  findUserByEmail,
  hashPassword,
  isUniqueViolation,
  normalizeEmail,
} from './accounts';
import { LoginThrottle } from './login-throttle';

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
  const throttle = new LoginThrottle();

  /** A new session at every sign-in: the one the browser had before, if any, is ended. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, account: Account) {
    await startSession(request, reply, account);
    request.account = account;
    return toCurrentUser(account);
  }

  function refuseIfThrottled(request: FastifyRequest, reply: FastifyReply) {
    const wait = throttle.retryAfter(request.ip);
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      throw new HttpError(
        429,
        `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
      );
    }
  }

  r.post(
    '/api/signup',
    { schema: { body: signUpSchema, response: { 200: currentUserSchema } } },
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
    async (request, reply) => {
      refuseIfThrottled(request, reply);
      const row = await findUserByEmail(app.db, request.body.email);
      if (!(await checkPassword(request.body.password, row?.password, bcryptCost)) || !row) {
        throttle.recordFailure(request.ip);
        throw new HttpError(401, INVALID_CREDENTIALS);
      }
      return signIn(request, reply, toAccount('user', row));
    },
  );

  r.post(
    '/api/admin/signin',
    { schema: { body: signInSchema, response: { 200: currentUserSchema } } },
    async (request, reply) => {
      refuseIfThrottled(request, reply);
      const row = await findAdminByEmail(app.db, request.body.email);
      if (!(await checkPassword(request.body.password, row?.password, bcryptCost)) || !row) {
        throttle.recordFailure(request.ip);
        throw new HttpError(401, INVALID_CREDENTIALS);
      }
      return signIn(request, reply, toAccount('admin', row));
    },
  );

  r.post('/api/logout', async (request, reply) => {
    await endSession(request, reply);
    return { success: true };
  });

  r.get('/api/logout', async (request, reply) => {
    await endSession(request, reply);
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
