import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  currentUserSchema,
  reauthSchema,
  type SignInInput,
  signInLinkSchema,
  signInSchema,
  signUpSchema,
  twoFactorCodeSchema,
} from '../../../shared/auth-schemas';
import { SUPPORT_EMAIL } from '../../../shared/brand';
import { type Account, type Principal, toAccount, toCurrentUser } from '../../common/account';
import {
  accountExists,
  findAccountRow,
  findAdminByEmail,
  findUserByEmail,
  normalizeEmail,
  passwordHashOf,
} from '../../common/accounts';
import { HttpError } from '../../common/http-error';
import {
  assertGoodPassword,
  checkPassword,
  hashPassword,
  isLegacyHash,
} from '../../common/passwords';
import { TOKEN_LIFETIME_MS } from '../../common/tokens';
import {
  accountOf,
  currentAccount,
  REAUTH_WINDOW_MS,
  requireCustomer,
  requireRecentPassword,
  requireSignedIn,
  UNAUTHORIZED,
} from '../../plugins/auth';
import { countAttempt, limit, networkOf } from '../../plugins/rate-limit';
import { endSession, loadSession, startSession } from '../../plugins/session';
import { markSessionFresh } from '../sessions';
import {
  mailSignInLink,
  recordSignInDevice,
  setUpTwoFactor,
  signUpCustomer,
  turnTwoFactorOff,
  upgradePasswordHash,
  useSecondFactor,
  useSignInLink,
} from './commands';
import { SignInThrottle } from './throttle';
import { findTwoFactor } from './two-factor';

const principalOfAccount = (account: Account): Principal => ({
  kind: account.kind,
  id: account.id,
});

/** What a sign-in with staff rights answers once the password is right (decision 037). */
const challengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  otpauthUrl: z.string().optional(),
  secret: z.string().optional(),
});

const WRONG_CODE = 'That code is not right. Enter the 6-digit code your authenticator shows now.';
const ACCOUNT_CLOSED = `This account is closed. If you think this is a mistake, contact ${SUPPORT_EMAIL}.`;
const REPLAYED_CODE = 'That code was just used. Wait for the next one (they change every 30 s).';
const NO_PENDING_SIGNIN = 'Your sign-in has expired. Enter your email and password again.';
const TWO_FACTOR_WINDOW_MS = 15 * 60 * 1000;
const TWO_FACTOR_ON = 'Two-factor is already on';

const INVALID_CREDENTIALS = 'Invalid email or password';

export default async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { bcryptCost } = app.config;
  const throttle = new SignInThrottle(app.counters, app.config.limits, (kind, email) => {
    // After the answer, so a known account's refusal takes as long as an unknown one's.
    setImmediate(() => {
      signInLinkForLocked(kind, email).catch((err) =>
        app.log.error({ err }, 'could not mail a sign-in link'),
      );
    });
  });

  /**
   * The account `email` names is locked (throttle.ts): its owner gets a one-time sign-in link,
   * valid 15 minutes. At most one is mailed per 15 minutes however long the attack lasts, so while
   * it goes on the owner always has one that works.
   */
  async function signInLinkForLocked(kind: Principal['kind'], email: string) {
    const row =
      kind === 'user'
        ? await findUserByEmail(app.db, email)
        : await findAdminByEmail(app.db, email);
    if (!row) return;
    const lifetime = TOKEN_LIFETIME_MS.signin_link;
    const sent = await app.counters.hit(`signin-link-email:${kind}:${row.id}`, lifetime);
    if (sent.current > 1) return;
    app.log.warn({ event: 'account_locked', kind, account: row.id }, 'sign-in locked; link mailed');
    await app.run((context) =>
      mailSignInLink(context, { kind, id: row.id, email, firstName: row.firstName }),
    );
    app.mail.kick();
  }

  /**
   * A second-factor code, counted before it is checked (codes sent at once are not all heard): 5
   * wrong in 15 minutes per account, at sign-in, at step-up and when turning two-factor on.
   */
  const countWrongCode = (reply: FastifyReply, account: Principal) =>
    countAttempt(app.counters, reply, {
      key: `two-factor:${account.kind}:${account.id}`,
      max: app.config.limits.twoFactorFailures,
      windowMs: TWO_FACTOR_WINDOW_MS,
      refusal: 'Too many wrong codes.',
    });

  /** A new session at every sign-in: the one the browser had before, if any, is ended. */
  /**
   * `fresh`: the password (or a code) was just given, so payment-method changes need no other
   * for 10 minutes (decision 072); an emailed link is not.
   */
  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    fresh = true,
  ) {
    // A closed account signs in no more (decision 072), whatever the way in.
    if (account.standing === 'closed') {
      throw new HttpError(403, ACCOUNT_CLOSED, undefined, { code: 'account_closed' });
    }
    await startSession(request, reply, account, fresh ? { reauthAt: app.now() } : {});
    // A browser and address new to the account is emailed (decision 072).
    await app.run((context) =>
      recordSignInDevice(context, account, {
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      }),
    );
    request.account = account;
    request.log.info({ event: 'signin', account: account.id, kind: account.kind }, 'signed in');
    return toCurrentUser(account);
  }

  /**
   * The password was right. A customer is signed in; an account with staff rights only gets a
   * session that waits for the second factor (and, the first time, the authenticator to set up).
   */
  async function passwordAccepted(
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    fresh = true,
  ) {
    // Customers who turned two-factor on give a code too (decision 072).
    const enrolment = account.isAdmin
      ? undefined
      : await findTwoFactor(app.db, app.config.encryption, account);
    if (!account.isAdmin && !enrolment?.enabledAt) return signIn(request, reply, account, fresh);
    const principal: Principal = { kind: account.kind, id: account.id };
    await startSession(request, reply, null, { pendingAccount: principal });
    request.log.info(
      { event: 'signin_password_accepted', account: account.id, kind: account.kind },
      'password accepted; second factor next',
    );
    const enrolled = (await findTwoFactor(app.db, app.config.encryption, principal))?.enabledAt;
    if (enrolled) return { twoFactorRequired: true as const };
    return {
      twoFactorRequired: true as const,
      ...(await app.run((context) => setUpTwoFactor(context, principal, account.email))),
    };
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
    const succeeded = await throttle
      .admit(reply, kind, email, networkOf(request))
      .catch((error: unknown) => {
        request.log.warn(
          { event: 'signin_throttled', kind, ip: request.ip },
          'sign-in refused (429)',
        );
        throw error;
      });
    const found =
      kind === 'user'
        ? await findUserByEmail(app.db, email)
        : await findAdminByEmail(app.db, email);
    // A deactivated staff member (or one whose invitation waits) signs in no more (decision 077).
    const row = found && 'active' in found && found.active === false ? undefined : found;
    if (!(await checkPassword(request.body.password, row?.password, bcryptCost)) || !row) {
      // The account when there is one; an unknown email is not written to the log.
      request.log.info(
        { event: 'signin_failed', kind, account: row?.id ?? null, ip: request.ip },
        'sign-in failed',
      );
      throw new HttpError(401, INVALID_CREDENTIALS);
    }
    await succeeded();
    if (isLegacyHash(row.password)) {
      const hash = await hashPassword(request.body.password, bcryptCost);
      await app.run((context) =>
        upgradePasswordHash(context, { kind, id: row.id }, row.password, hash),
      );
    }
    return row;
  }

  r.post(
    '/api/signup',
    {
      config: {
        rateLimit: limit('signup', app.config.limits),
      },
      schema: { body: signUpSchema, response: { 200: currentUserSchema } },
    },
    async (request, reply) => {
      const { email, password, firstName, lastName } = request.body;
      if (await findUserByEmail(app.db, email)) throw accountExists();
      assertGoodPassword(password, 'password');
      const hash = await hashPassword(password, bcryptCost);
      // Signed in at once (the spec's flow); the emailed link confirms the address when opened.
      const account = await app.run((context) =>
        signUpCustomer(context, { email, firstName, lastName }, hash),
      );
      app.mail.kick();
      return signIn(request, reply, account);
    },
  );

  r.post(
    '/api/signin',
    {
      schema: {
        body: signInSchema,
        response: { 200: z.union([currentUserSchema, challengeSchema]) },
      },
    },
    async (request, reply) =>
      passwordAccepted(
        request,
        reply,
        toAccount('user', await authenticate('user', request, reply)),
      ),
  );

  r.post(
    '/api/admin/signin',
    { schema: { body: signInSchema, response: { 200: challengeSchema } } },
    async (request, reply) =>
      passwordAccepted(
        request,
        reply,
        toAccount('admin', await authenticate('admin', request, reply)),
      ) as Promise<z.infer<typeof challengeSchema>>,
  );

  /**
   * The second step of a sign-in with staff rights: a code from the authenticator (or a recovery
   * code). Wrong codes are counted per account; the first right code completes the enrolment and
   * answers the recovery codes, shown once.
   */
  r.post(
    '/api/admin/signin/verify',
    {
      schema: {
        body: twoFactorCodeSchema,
        response: {
          200: currentUserSchema.extend({ recoveryCodes: z.array(z.string()).optional() }),
        },
      },
    },
    async (request, reply) => {
      const session = await loadSession(request);
      const pending = session?.account ? undefined : session?.data.pendingAccount;
      if (!pending) throw new HttpError(401, NO_PENDING_SIGNIN);
      const succeeded = await countWrongCode(reply, pending);
      const enrolment = await findTwoFactor(app.db, app.config.encryption, pending);
      const found = await findAccountRow(app.db, pending);
      const row = found && 'active' in found && found.active === false ? undefined : found;
      if (!enrolment || !row) throw new HttpError(401, NO_PENDING_SIGNIN);
      const { check, recoveryCodes } = await app.run((context) =>
        useSecondFactor(context, { ...pending, email: row.email }, request.body.code),
      );
      if (check !== 'ok') {
        request.log.warn(
          { event: 'two_factor_failed', account: pending.id, kind: pending.kind, check },
          'second factor refused',
        );
        const message = check === 'replayed' ? REPLAYED_CODE : WRONG_CODE;
        throw new HttpError(400, message, { code: message });
      }
      await succeeded();
      const user = await signIn(request, reply, toAccount(pending.kind, row));
      return { ...user, ...(recoveryCodes && { recoveryCodes }) };
    },
  );

  /**
   * The one-time link mailed to the owner of a locked account: it signs in once, as the password
   * would (staff still give their second factor).
   */
  r.post(
    '/api/signin/link',
    {
      schema: {
        body: signInLinkSchema,
        response: { 200: z.union([currentUserSchema, challengeSchema]) },
      },
    },
    async (request, reply) => {
      const account = await app.run((context) => useSignInLink(context, request.body.token));
      request.log.info(
        { event: 'signin_link_used', account: account.id, kind: account.kind },
        'sign-in link used',
      );
      return passwordAccepted(request, reply, account, false);
    },
  );

  /**
   * Step-up (decision 072): the password again, or a code when two-factor is on, opens
   * payment-method changes to this session for 10 minutes. Wrong tries count with the account's
   * sign-in failures (decision 101): a wrong password as a wrong sign-in password (20 an hour, then
   * the lock and its emailed link), a wrong code as a wrong sign-in code.
   */
  r.post(
    '/api/reauth',
    {
      onRequest: requireSignedIn,
      schema: {
        body: reauthSchema,
        response: { 200: z.object({ success: z.literal(true), freshUntil: z.string() }) },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const principal: Principal = { kind: account.kind, id: account.id };
      const { password, code } = request.body;
      const succeeded =
        code === undefined
          ? await throttle.admitAccount(reply, account.kind, normalizeEmail(account.email))
          : await countWrongCode(reply, principal);
      if (code !== undefined) {
        const enrolment = await findTwoFactor(app.db, app.config.encryption, principal);
        if (!enrolment?.enabledAt) {
          const message = 'Two-factor is not on for this account: enter your password';
          throw new HttpError(400, message, { code: message });
        }
        const { check } = await app.run((context) => useSecondFactor(context, account, code));
        if (check !== 'ok') {
          const message = check === 'replayed' ? REPLAYED_CODE : WRONG_CODE;
          throw new HttpError(400, message, { code: message });
        }
      } else {
        const stored = await passwordHashOf(app.db, principal);
        if (!(await checkPassword(password ?? '', stored, bcryptCost))) {
          const message = 'That password is not right';
          throw new HttpError(400, message, { password: message });
        }
      }
      await succeeded();
      const session = request.session!;
      const at = await app.run((context) => markSessionFresh(context, session.sid));
      session.data = { ...session.data, reauthAt: at };
      return { success: true as const, freshUntil: new Date(at + REAUTH_WINDOW_MS).toISOString() };
    },
  );

  /**
   * Customer two-factor (decision 072), reusing the staff implementation: set up (a fresh password
   * first), confirm with a first code (answers the recovery codes, shown once), or turn off.
   */
  r.get(
    '/api/two-factor',
    {
      onRequest: requireCustomer,
      // Turning it on or off changes the account's topic: other tabs and devices see it at once.
      config: { live: { topic: 'account' } },
      schema: { response: { 200: z.object({ enabled: z.boolean() }) } },
    },
    async (request) => {
      const enrolment = await findTwoFactor(
        app.db,
        app.config.encryption,
        principalOfAccount(accountOf(request)),
      );
      return { enabled: !!enrolment?.enabledAt };
    },
  );

  r.post(
    '/api/two-factor/setup',
    {
      onRequest: [requireCustomer, requireRecentPassword],
      schema: { response: { 200: z.object({ otpauthUrl: z.string(), secret: z.string() }) } },
    },
    async (request) => {
      const account = accountOf(request);
      const principal = principalOfAccount(account);
      const enrolment = await findTwoFactor(app.db, app.config.encryption, principal);
      if (enrolment?.enabledAt) throw new HttpError(409, TWO_FACTOR_ON);
      return app.run((context) => setUpTwoFactor(context, principal, account.email));
    },
  );

  r.post(
    '/api/two-factor/enable',
    {
      onRequest: [requireCustomer, requireRecentPassword],
      schema: {
        body: twoFactorCodeSchema,
        response: { 200: z.object({ recoveryCodes: z.array(z.string()) }) },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const succeeded = await countWrongCode(reply, account);
      const enrolment = await findTwoFactor(app.db, app.config.encryption, account);
      if (!enrolment) throw new HttpError(409, 'Set two-factor up first');
      if (enrolment.enabledAt) throw new HttpError(409, TWO_FACTOR_ON);
      const { check, wasOn, recoveryCodes } = await app.run((context) =>
        useSecondFactor(context, account, request.body.code),
      );
      // Another request turned it on while this one waited for the enrolment's lock (its code,
      // the same one, is then a replay): that is the conflict, not a wrong code.
      if (wasOn) throw new HttpError(409, TWO_FACTOR_ON);
      if (check !== 'ok') {
        const message = check === 'replayed' ? REPLAYED_CODE : WRONG_CODE;
        throw new HttpError(400, message, { code: message });
      }
      await succeeded();
      // Another code turned it on meanwhile (and answered the recovery codes).
      if (!recoveryCodes) throw new HttpError(409, TWO_FACTOR_ON);
      return { recoveryCodes };
    },
  );

  r.post(
    '/api/two-factor/disable',
    {
      onRequest: [requireCustomer, requireRecentPassword],
      schema: { response: { 200: z.object({ success: z.literal(true) }) } },
    },
    async (request) => {
      const account = accountOf(request);
      await app.run((context) => turnTwoFactorOff(context, account));
      return { success: true as const };
    },
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

  // Who is signed in, without a 401 for nobody: what the app asks on load, so that a signed-out
  // page logs no failed request (issue 43, item 23). GET /api/auth/user keeps the spec's 401.
  r.get(
    '/api/auth/session',
    { schema: { response: { 200: z.object({ user: currentUserSchema.nullable() }) } } },
    async (request, reply) => {
      const account = await currentAccount(request);
      reply.header('cache-control', 'no-store');
      return { user: account ? toCurrentUser(account) : null };
    },
  );
}
