import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sign } from 'cookie-signature';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { createPostgresDatabase } from '../../scripts/lib/postgres';
import { freshCode, rememberSecret, secretOf } from '../../scripts/lib/staff-sign-in';
import { type BuildOptions, buildApp } from '../../src/server/app';
import { upsertAdmin } from '../../src/server/common/accounts';
import { SESSION_LIMITS } from '../../src/server/common/session-cache';
import { type AppConfig, type Limits, loadConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { admins, sessions } from '../../src/server/db/schema';
import type { StaffRole } from '../../src/shared/staff-roles';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: AppConfig;
  /** Moves the app's clock (sessions expire by it) forward. */
  advance(ms: number): void;
  /** The app's clock. */
  now(): number;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database for one test file: an in-memory PGlite, or, when
 * DATABASE_URL is set, a new PostgreSQL database that is dropped afterwards.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  { onDisk = false, ...options }: Omit<BuildOptions, 'now'> & { onDisk?: boolean } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-api-'));
  // Under Vitest, a copy of the run's migrated database (tests/database-template.ts).
  const template = process.env.VITEST ? inject('testDatabaseTemplate') : undefined;
  const fresh = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL, undefined, template)
    : null;
  // In memory unless asked (a long fuzz run keeps its embedded database on disk).
  const database = await openDatabase({
    databaseUrl: fresh?.url,
    pgliteDir: !fresh && onDisk ? path.join(dataDir, 'db') : undefined,
    pgliteFrom: !fresh && !onDisk ? template : undefined,
  });
  await database.migrate();
  const config: AppConfig = {
    ...loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      BCRYPT_COST: '4',
      LOG_LEVEL: 'silent',
      // Every test signs up from the same address: limits are tested on their own (limits.test.ts).
      ...GENEROUS_LIMITS,
      // Tests pay cards minutes after sign-up: payout holds are tested on their own
      // (payout-holds.test.ts, which turns them on).
      ...NO_PAYOUT_HOLDS,
    }),
    port: 0,
    databaseUrl: fresh?.url,
    ...overrides,
  };
  let offset = 0;
  const app = await buildApp(config, database, { ...options, now: () => Date.now() + offset });
  await app.ready();
  return {
    app,
    database,
    config,
    advance(ms) {
      offset += ms;
    },
    now: () => Date.now() + offset,
    async close() {
      await app.close();
      await database.close();
      await fresh?.drop();
    },
  };
}

/**
 * The test file's app on a fresh database, built before its first test and closed after its last:
 * `const t = setUpTestApp()` at the top of a file, in place of the same hooks written out in each.
 * `overrides` may be a function, read when the app is built (after earlier hooks, such as a mail
 * server's, have run).
 */
export function setUpTestApp(
  overrides: Partial<AppConfig> | (() => Partial<AppConfig>) = {},
  options: Parameters<typeof createTestApp>[1] = {},
): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(
      t,
      await createTestApp(typeof overrides === 'function' ? overrides() : overrides, options),
    );
  });
  afterAll(() => t.close());
  return t;
}

/** A staff member of the file's app, signed in through both steps before the file's tests. */
export function setUpStaff(t: TestApp, email?: string): SignedIn {
  const staff = {} as SignedIn;
  beforeAll(async () => {
    Object.assign(staff, await signInStaff(t, email));
  });
  return staff;
}

/**
 * A signed-in session made straight in the database, as a completed sign-in leaves it: for the
 * fuzzer, which signs staff in again and again (each real sign-in takes a fresh authenticator
 * code, one per 30 s). Every test of signing in goes through the API.
 */
export async function sessionFor(
  testApp: TestApp,
  account: { kind: 'user' | 'admin'; id: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = testApp.now();
  await testApp.database.db.insert(sessions).values({
    sid: createHash('sha256').update(token).digest('hex'),
    sess: {},
    expire: new Date(now + SESSION_LIMITS[account.kind].idleMs),
    accountKind: account.kind,
    accountId: account.id,
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
  });
  return `cb.sid=${encodeURIComponent(sign(token, testApp.config.sessionSecret))}`;
}

/** The sessions table's key for a cookie: the SHA-256 of its token. */
export function sidOf(cookie: string): string {
  const token = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
  return createHash('sha256').update(token).digest('hex');
}

export function sessionCookie(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((c) => c.name === 'cb.sid');
  return cookie?.value ? `cb.sid=${cookie.value}` : undefined;
}

/** The limits a fresh install has (config.ts's defaults), for the files that test them. */
export const DEFAULT_LIMITS: Limits = {
  signinFailuresPerAccount: 20,
  signinFailuresPerAddress: 10,
  signupsPerAddress: 10,
  chatMessagesPerMinute: 30,
  ticketsPerHour: 10,
  ticketRepliesPerHour: 30,
  uploadsPerHour: 60,
  twoFactorFailures: 5,
  accountEmailsPerHour: 5,
  apiKeyRequestsPerMinute: 600,
};

/** Rate limits no test file reaches by accident. */
export const GENEROUS_LIMITS = {
  LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: '100000',
  LIMIT_SIGNIN_FAILURES_PER_ADDRESS: '100000',
  LIMIT_SIGNUPS_PER_ADDRESS: '100000',
  LIMIT_CHAT_MESSAGES_PER_MINUTE: '100000',
  LIMIT_TICKETS_PER_HOUR: '100000',
  LIMIT_TICKET_REPLIES_PER_HOUR: '100000',
  LIMIT_UPLOADS_PER_HOUR: '100000',
};

/** Payout holds off (decision 072): for the files that pay cards of brand-new accounts. */
export const NO_PAYOUT_HOLDS = {
  PAYOUT_HOLD_NEW_METHOD_HOURS: '0',
  PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
};

let addresses = 0;
/**
 * A client address no other test of the file has used (in 10.200.0.0/16, which no test names),
 * for the files that test per-address limits.
 */
export const freshAddress = () => {
  addresses++;
  return `10.200.${addresses >> 8}.${addresses & 255}`;
};

let counter = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${Date.now().toString(36)}.${++counter}@example.com`;

export interface SignedIn {
  cookie: string;
  user: { id: string; email: string; isAdmin: boolean };
}

export async function signUp(
  app: FastifyInstance,
  body: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {},
): Promise<SignedIn> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: {
      email: uniqueEmail(),
      password: 'correct horse battery',
      firstName: 'Casey',
      lastName: 'Customer',
      ...body,
    },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.body}`);
  return { cookie: sessionCookie(response)!, user: response.json() };
}

/**
 * Signs staff in as the portal does: password, then a code from the authenticator (enrolling it
 * the first time, with the secret the server answers). A new email makes a new staff account.
 */
export async function signInStaff(
  testApp: TestApp,
  email = uniqueEmail('staff'),
  password = 'staff password 1',
): Promise<SignedIn> {
  await upsertAdmin(
    testApp.database.db,
    { email, password, firstName: 'Sam', lastName: 'Staff' },
    4,
  );
  const first = await testApp.app.inject({
    method: 'POST',
    url: '/api/admin/signin',
    payload: { email, password },
  });
  if (first.statusCode !== 200) throw new Error(`staff sign-in failed: ${first.body}`);
  const challenge = first.json() as { secret?: string };
  if (challenge.secret) rememberSecret(email, challenge.secret);
  const secret = secretOf(email);
  if (!secret) throw new Error(`no authenticator secret known for ${email}`);
  const second = await testApp.app.inject({
    method: 'POST',
    url: '/api/admin/signin/verify',
    payload: { code: await freshCode(secret, testApp.now) },
    headers: { cookie: sessionCookie(first)! },
  });
  if (second.statusCode !== 200) throw new Error(`staff second factor failed: ${second.body}`);
  return { cookie: sessionCookie(second)!, user: second.json() };
}

/** app.inject with a session cookie. */
export function as(app: FastifyInstance, who: SignedIn | undefined, options: InjectOptions) {
  return app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), ...(who ? { cookie: who.cookie } : {}) },
  });
}

/** A multipart/form-data body with one file part, as a browser's FormData would send it. */
export function multipart(
  body: Buffer,
  filename = 'card.jpg',
  contentType = 'image/jpeg',
  field = 'file',
) {
  const boundary = `----cardbridge${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '..', 'fixtures', name));

export async function uploadCardImage(
  app: FastifyInstance,
  who: SignedIn,
  name = 'card-front.jpg',
) {
  const response = await as(app, who, {
    method: 'POST',
    url: '/api/upload-card-image',
    ...multipart(fixture(name), name, name.endsWith('.png') ? 'image/png' : 'image/jpeg'),
  });
  if (response.statusCode !== 200) throw new Error(`upload failed: ${response.body}`);
  return response.json().objectPath as string;
}

export async function addPaymentMethod(app: FastifyInstance, who: SignedIn, body: object = {}) {
  const response = await as(app, who, {
    method: 'POST',
    url: '/api/payment-methods',
    payload: {
      type: 'paypal',
      accountName: 'Casey Customer',
      identifier: 'casey@example.com',
      ...body,
    },
  });
  if (response.statusCode !== 201) throw new Error(`payment method failed: ${response.body}`);
  return response.json() as { id: string; isDefault: boolean };
}

/** The card of the API tests' submissions: a $100 brand-new Amazon eGift card. */
export const CARD = {
  cardType: 'Amazon',
  cardValue: '100',
  cardCondition: 'brand_new',
  cardFormat: 'egift',
};

/**
 * A customer's card submission, the one card builder of the API tests: a $100 brand-new Amazon
 * eGift card, with a new payment method and one fresh image of the customer's unless `body` names
 * its own (`paymentMethodId`, `imageUrls`); any other field of `body` replaces the default.
 */
export async function submitCard(app: FastifyInstance, who: SignedIn, body: object = {}) {
  const given = body as { paymentMethodId?: string; imageUrls?: string[] };
  const paymentMethodId = given.paymentMethodId ?? (await addPaymentMethod(app, who)).id;
  const imageUrls = given.imageUrls ?? [await uploadCardImage(app, who)];
  return as(app, who, {
    method: 'POST',
    url: '/api/transactions',
    payload: { ...CARD, ...body, paymentMethodId, imageUrls },
  });
}

/**
 * A staff edit of a card as the portal sends it: with the `updatedAt` of the card as staff last
 * read it (`expectedUpdatedAt`, required; decision 108), read just before unless the payload has
 * one. A card the caller cannot read (none, or not theirs to read) is sent with a time of its
 * own, so the answer is the edit's own 404 or 403.
 */
export async function reviewCard(
  app: FastifyInstance,
  who: SignedIn | undefined,
  id: string,
  payload: object,
) {
  const read =
    'expectedUpdatedAt' in payload
      ? null
      : await as(app, who, { method: 'GET', url: `/api/admin/transactions/${id}` });
  const seen = read?.statusCode === 200 ? read.json().updatedAt : new Date(0).toISOString();
  return as(app, who, {
    method: 'PATCH',
    url: `/api/admin/transactions/${id}`,
    payload: { expectedUpdatedAt: seen, ...payload },
  });
}

export { freshCode } from '../../scripts/lib/staff-sign-in';

/** A staff member of `role` (src/shared/staff-roles.ts), signed in through both steps. */
export async function signInAs(testApp: TestApp, role: StaffRole): Promise<SignedIn> {
  const email = uniqueEmail(role);
  await upsertAdmin(testApp.database.db, { email, password: 'staff password 1' }, 4);
  await testApp.database.db.update(admins).set({ role }).where(eq(admins.email, email));
  return signInStaff(testApp, email);
}
