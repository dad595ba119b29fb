/**
 * Every route of the API with who may call it, a valid request to start mutating from, and what
 * a successful answer must never show (another customer's data, a privilege the body asked for).
 * Routes the app registers that are missing here are still fuzzed, generically (see runner.ts).
 */
import type { FastifyInstance } from 'fastify';
import { BRANDS, OTHER_BRAND } from '../../src/shared/brands';
import { CARD_CONDITIONS, CARD_FORMATS } from '../../src/shared/card-rules';
import { expectedPayout } from '../../src/shared/money';
import { PAYMENT_METHOD_TYPES } from '../../src/shared/payment-methods';
import { REJECTION_REASONS } from '../../src/shared/rejections';
import { PAYMENT_STATUSES, TICKET_STATUSES, TRANSACTION_STATUSES } from '../../src/shared/statuses';
import { addPaymentMethod, uploadCardImage } from '../api/helpers';
import { type GenOptions, type JsonLike, JsonObject, toJsonText } from './generators';
import type { Rng } from './rng';

export type Who = 'anonymous' | 'customer' | 'staff';
export const IDENTITIES: readonly Who[] = ['anonymous', 'customer', 'staff'];

/** Who may call a route: anyone, anyone signed in, customers only, staff only. */
export type Access = 'public' | 'signed-in' | 'customer' | 'staff';

export const allows = (access: Access, who: Who) =>
  access === 'public' || (access === 'signed-in' && who !== 'anonymous') || access === who;

export interface Account {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

export const POOL_NAMES = [
  'customerTransactions',
  'otherTransactions',
  'customerMethods',
  'otherMethods',
  /** The customer's card images no transaction has claimed yet. */
  'customerCardImages',
  'claimedCardImages',
  'otherCardImages',
  'customerChatFiles',
  'staffChatFiles',
  'otherChatFiles',
  'tickets',
  /** The other customer's tickets: the customer must never read or write in them. */
  'otherTickets',
  'userIds',
  'transactionCursors',
  'userCursors',
  'conversationCursors',
  'ticketCursors',
  'updatedAts',
  /** Ids of the identities' own sessions (GET /api/sessions). */
  'sessionIds',
  'notificationIds',
  /** Identity documents the customer uploaded (decision 072): never served back to them. */
  'verificationDocuments',
  'verificationIds',
  'verificationCursors',
] as const;
export type PoolName = (typeof POOL_NAMES)[number];

/** The accounts and the ids they own: valid requests start from these, mutated ones reuse them. */
export interface World {
  customer: Account;
  /** A second customer whose ids the first must never reach. */
  other: Account;
  staff: Account;
  pools: Record<PoolName, string[]>;
  /** The customer's API key with every scope (issue 42), for the `/api/v1` routes. */
  apiKey?: string;
}

const POOL_CAP = 300;

export function addToPool(world: World, pool: PoolName, ...values: string[]) {
  const list = world.pools[pool];
  for (const value of values) if (!list.includes(value)) list.push(value);
  if (list.length > POOL_CAP) list.splice(0, list.length - POOL_CAP);
}

export function removeFromPool(world: World, pool: PoolName, value: string) {
  const list = world.pools[pool];
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
}

export interface GenContext {
  rng: Rng;
  world: World;
  who: Who;
  options: GenOptions;
}

/** A successful answer, for the checks and for learning new ids. */
export interface Success {
  status: number;
  json: unknown;
  headers: Record<string, unknown>;
  /** The path parameter and body the request carried. */
  param: string | undefined;
  body: JsonObject | undefined;
  who: Who;
}

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** As registered: `:id` and `*` are filled in by `param`. */
  path: string;
  access: Access;
  body?: 'json' | 'multipart';
  validBody?: (ctx: GenContext) => JsonObject;
  /** A valid value for the path's parameter. */
  param?: (ctx: GenContext) => string;
  /** Query parameters the route reads, each with a valid value. */
  query?: Record<string, (ctx: GenContext) => string>;
  /** Signs in or out: sent on a session of its own, so the identity's own session survives. */
  ownSession?: boolean;
  /** Answers a stream that stays open (server-sent events). */
  streaming?: boolean;
  /** What a 2xx answer must not show; a message when it does. */
  check?: (success: Success, world: World) => string | null;
  /** Ids a 2xx answer teaches the fuzzer, so later valid requests reach deeper. */
  learn?: (success: Success, world: World) => void;
  /** Tops up what a valid request needs (images, a payment method), before a customer's try. */
  prepare?: (app: FastifyInstance, world: World) => Promise<void>;
  /** Generic: a registered route the catalogue does not describe. */
  generic?: boolean;
  /** Shows a page to a browser that asks for HTML, its errors too (the unsubscribe link). */
  page?: boolean;
  /** A partner route (`/api/v1`): the customer sends the world's API key as a bearer token. */
  bearer?: boolean;
}

export const routeKey = (route: Pick<RouteSpec, 'method' | 'path'>) =>
  `${route.method} ${route.path}`;

const pickOr = (rng: Rng, list: string[], fallback: () => string) =>
  list.length > 0 ? rng.pick(list) : fallback();

const keyOf = (objectPath: string) => objectPath.replace(/^\/objects\//, '');

const obj = (value: Record<string, JsonLike>) => JsonObject.from(value);

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function paymentMethodBody(rng: Rng): JsonObject {
  // Bank transfers most often: their required fields are an invariant the run checks.
  const type = rng.chance(0.4) ? 'bank_transfer' : rng.pick(PAYMENT_METHOD_TYPES);
  const base: Record<string, JsonLike> = { type, accountName: 'Casey Customer' };
  switch (type) {
    case 'bank_transfer':
      Object.assign(base, {
        accountNumber: rng.pick(['12345678', '0000', '12345678901234567']),
        bankName: 'First Fuzz Bank',
        routingNumber: '021000021',
      });
      break;
    case 'paypal':
    case 'sofi':
      base.identifier = 'casey@example.com';
      break;
    case 'usdt_bep20':
      base.identifier = `0x${rng.hex(40)}`;
      break;
    case 'usdt_trc20':
      // A real TRC-20 address: the server checks its base58check checksum.
      base.identifier = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
      break;
    default:
      base.identifier = '$casey';
  }
  if (rng.chance(0.3)) base.isDefault = rng.chance(0.5);
  return obj(base);
}

function transactionBody({ rng, world }: GenContext): JsonObject {
  const cardType = rng.chance(0.9)
    ? rng.pick(BRANDS.filter((b) => b !== OTHER_BRAND))
    : rng.pick(['Local Bakery', OTHER_BRAND]);
  const images = world.pools.customerCardImages;
  return obj({
    cardType,
    cardValue: rng.pick<JsonLike>(['100', '25', '50.50', '1000', 75, '99999999.99']),
    cardCondition: rng.pick(CARD_CONDITIONS),
    cardFormat: rng.pick(CARD_FORMATS),
    paymentMethodId: pickOr(rng, world.pools.customerMethods, () => rng.uuid()),
    imageUrls: images.length > 0 ? rng.sample(images, rng.int(1, Math.min(3, images.length))) : [],
    ...(rng.chance(0.5) ? { notes: 'PIN is on the back' } : {}),
    ...(rng.chance(0.5)
      ? { cardCode: rng.pick<JsonLike>(['ABCD-EFGH-1234', '1234', '', ' ', 'x'.repeat(65), 42]) }
      : {}),
    ...(rng.chance(0.5) ? { scamCheck: rng.pick<JsonLike>(['no', 'no', 'no', 'yes']) } : {}),
  });
}

/** A partner's card (POST /api/v1/cards): mostly e-codes, without photos. */
function partnerCardBody({ rng, world }: GenContext): JsonObject {
  return obj({
    brand: rng.pick(BRANDS.filter((b) => b !== OTHER_BRAND)),
    value: rng.pick<JsonLike>(['100', '25', '50.50', '1000', 75, '99999999.99']),
    format: rng.chance(0.9) ? 'egift' : 'physical',
    code: rng.pick<JsonLike>([`CODE-${rng.int(0, 1e9)}`, 'ABCD-EFGH-1234', '', 'x'.repeat(65), 42]),
    paymentMethodId: pickOr(rng, world.pools.customerMethods, () => rng.uuid()),
    ...(rng.chance(0.5) ? { reference: `order-${rng.int(0, 1e6)}` } : {}),
    ...(rng.chance(0.3) ? { pin: rng.pick<JsonLike>(['1234', '', 'x'.repeat(40)]) } : {}),
  });
}

/** The customer's own ids are allowed; the other customer's must never come back in a 2xx. */
function foreign(world: World, pool: PoolName, value: unknown) {
  return typeof value === 'string' && world.pools[pool].includes(value);
}

/**
 * A ticket, the other customer's half the time: among the many the customer files during a run,
 * theirs would otherwise hardly ever be tried.
 */
const anyTicket = ({ rng, world }: GenContext) =>
  pickOr(rng, rng.chance(0.5) ? world.pools.otherTickets : world.pools.tickets, () => rng.uuid());

const ticketReplyBody = ({ rng }: GenContext) =>
  obj({ message: rng.pick(['Any news on this?', 'It was PayPal.\nThanks!', '  Still waiting  ']) });

const anyTransaction = ({ rng, world }: GenContext) =>
  pickOr(rng, [...world.pools.customerTransactions, ...world.pools.otherTransactions], () =>
    rng.uuid(),
  );

/** A staff list's paging: a limit, and a cursor the server wrote for that list. */
const paged = (pool: PoolName) => ({
  limit: ({ rng }: GenContext) => String(rng.int(1, 100)),
  cursor: ({ rng, world }: GenContext) => pickOr(rng, world.pools[pool], () => 'bm90LWEtY3Vyc29y'),
});

/** Keeps the next-page cursor a staff list answered with. */
const learnCursor =
  (pool: PoolName) =>
  ({ headers }: Success, world: World) => {
    const next = headers['x-next-cursor'];
    if (typeof next === 'string') addToPool(world, pool, next);
  };

export const CATALOGUE: RouteSpec[] = [
  // auth
  {
    method: 'POST',
    path: '/api/signup',
    access: 'public',
    body: 'json',
    ownSession: true,
    validBody: ({ rng }) =>
      obj({
        email: `fuzz.${rng.hex(12)}@example.com`,
        password: 'correct horse battery',
        firstName: 'Fuzz',
        lastName: 'Tester',
      }),
    check: ({ json }) => (asRecord(json).isAdmin === false ? null : 'sign-up answered isAdmin'),
  },
  {
    method: 'POST',
    path: '/api/signin',
    access: 'public',
    body: 'json',
    ownSession: true,
    validBody: ({ rng, world }) =>
      rng.chance(0.6)
        ? obj({ email: world.customer.email, password: world.customer.password })
        : obj({ email: world.other.email, password: 'wrong password' }),
    check: ({ json }, world) =>
      asRecord(json).isAdmin === true && asRecord(json).email !== world.staff.email
        ? 'customer sign-in answered isAdmin'
        : null,
  },
  {
    method: 'POST',
    path: '/api/admin/signin',
    access: 'public',
    body: 'json',
    ownSession: true,
    validBody: ({ rng, world }) =>
      rng.chance(0.6)
        ? obj({ email: world.staff.email, password: world.staff.password })
        : obj({ email: world.customer.email, password: world.customer.password }),
    // The right password only opens the second step: no account, no session with rights.
    check: ({ json }) =>
      asRecord(json).twoFactorRequired === true && !('email' in asRecord(json))
        ? null
        : 'staff sign-in answered more than a second-factor challenge',
  },
  {
    method: 'POST',
    path: '/api/admin/signin/verify',
    access: 'public',
    body: 'json',
    ownSession: true,
    validBody: ({ rng }) =>
      obj({ code: rng.chance(0.7) ? String(rng.int(0, 999_999)).padStart(6, '0') : 'abcde-23456' }),
    check: () => 'a second factor was accepted without a password step',
  },
  {
    method: 'POST',
    path: '/api/password/forgot',
    access: 'public',
    body: 'json',
    validBody: ({ rng, world }) =>
      obj({ email: rng.chance(0.5) ? world.customer.email : `nobody.${rng.hex(6)}@example.com` }),
  },
  {
    method: 'POST',
    path: '/api/password/reset/check',
    access: 'public',
    body: 'json',
    validBody: ({ rng }) => obj({ token: rng.hex(43) }),
    check: () => 'a made-up reset token was called valid',
  },
  {
    method: 'POST',
    path: '/api/password/reset',
    access: 'public',
    body: 'json',
    validBody: ({ rng }) => obj({ token: rng.hex(43), password: 'a brand new secret 9' }),
    check: () => 'a made-up reset token changed a password',
  },
  {
    method: 'POST',
    path: '/api/password/change',
    access: 'signed-in',
    body: 'json',
    ownSession: true,
    // The same password again (it changes nothing the fuzzer relies on), or a wrong current one.
    validBody: ({ rng, world, who }) => {
      const account = who === 'staff' ? world.staff : world.customer;
      return obj({
        currentPassword: rng.chance(0.5) ? account.password : 'not the password',
        newPassword: account.password,
      });
    },
  },
  {
    method: 'POST',
    path: '/api/email/verify',
    access: 'public',
    body: 'json',
    validBody: ({ rng }) => obj({ token: rng.hex(43) }),
    check: () => 'a made-up verification token was accepted',
  },
  { method: 'POST', path: '/api/email/verify/resend', access: 'customer' },
  {
    method: 'POST',
    path: '/api/signin/link',
    access: 'public',
    body: 'json',
    validBody: ({ rng }) => obj({ token: rng.hex(43) }),
    check: () => 'a made-up sign-in link token was accepted',
  },
  {
    method: 'PATCH',
    path: '/api/profile',
    access: 'signed-in',
    body: 'json',
    validBody: ({ rng, who }) =>
      obj({
        ...(rng.chance(0.7) ? { firstName: rng.pick(['Casey', 'Zoë', '李']) } : {}),
        ...(rng.chance(0.7) ? { lastName: 'Customer' } : {}),
        ...(who === 'customer' && rng.chance(0.5) ? { emailNotifications: rng.chance(0.5) } : {}),
      }),
    check: ({ json, who }, world) =>
      asRecord(json).email === (who === 'staff' ? world.staff.email : world.customer.email)
        ? null
        : 'a profile change answered another account',
  },

  {
    method: 'POST',
    path: '/api/account/email',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) =>
      obj({ email: `moved.${rng.hex(8)}@example.com`, password: rng.pick(['wrong password', '']) }),
    check: () => 'an email change went through without the password',
  },
  // export and deletion (issue 22, decision 083)
  { method: 'POST', path: '/api/account/export', access: 'customer' },
  { method: 'GET', path: '/api/account/exports', access: 'customer' },
  {
    method: 'GET',
    path: '/api/account/exports/:id/download',
    access: 'customer',
    param: ({ rng }) => rng.pick([rng.uuid(), 'not-an-id']),
    check: () => 'an export that does not exist was downloaded',
  },
  {
    method: 'DELETE',
    path: '/api/account',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) =>
      obj({ password: rng.pick(['wrong password', 'x']), whenSettled: rng.chance(0.5) }),
    check: () => 'an account was deleted without its password',
  },
  // email preferences and the one-click unsubscribe (issue 22)
  {
    method: 'GET',
    path: '/api/account/email-preferences',
    access: 'customer',
    check: ({ json }) =>
      Object.keys(asRecord(json)).sort().join() === 'digests,statusUpdates'
        ? null
        : 'email preferences answered something else',
  },
  {
    method: 'PUT',
    path: '/api/account/email-preferences',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) => obj({ statusUpdates: rng.chance(0.5), digests: rng.chance(0.5) }),
    check: ({ json }) => {
      const answer = asRecord(json);
      return Object.keys(answer).sort().join() === 'digests,statusUpdates' &&
        typeof answer.statusUpdates === 'boolean' &&
        typeof answer.digests === 'boolean'
        ? null
        : 'email preferences answered something else';
    },
  },
  {
    method: 'POST',
    path: '/api/unsubscribe',
    access: 'public',
    page: true,
    query: { token: ({ rng, world }) => `${world.customer.id}.statusUpdates.${rng.hex(43)}` },
    check: () => 'a made-up unsubscribe token was accepted',
  },
  {
    method: 'GET',
    path: '/api/unsubscribe',
    access: 'public',
    page: true,
    query: { token: ({ rng, world }) => `${world.customer.id}.digests.${rng.hex(43)}` },
    check: () => 'a made-up unsubscribe token was shown a page',
  },

  // sessions
  {
    method: 'GET',
    path: '/api/sessions',
    access: 'signed-in',
    learn: ({ json }, world) => {
      for (const s of Array.isArray(json) ? json : []) {
        const id = asRecord(s).id;
        if (typeof id === 'string') addToPool(world, 'sessionIds', id);
      }
    },
  },
  {
    method: 'DELETE',
    path: '/api/sessions/:id',
    access: 'signed-in',
    ownSession: true,
    param: ({ rng, world }) => pickOr(rng, world.pools.sessionIds, () => rng.uuid()),
  },
  { method: 'POST', path: '/api/sessions/revoke-others', access: 'signed-in', ownSession: true },
  {
    method: 'POST',
    path: '/api/admin/users/:id/sessions/revoke',
    access: 'staff',
    param: ({ rng, world }) => rng.pick(world.pools.userIds),
  },

  // notifications
  {
    method: 'GET',
    path: '/api/notifications',
    access: 'signed-in',
    learn: ({ json }, world) => {
      for (const n of Array.isArray(asRecord(json).items)
        ? (asRecord(json).items as unknown[])
        : []) {
        const id = asRecord(n).id;
        if (typeof id === 'string') addToPool(world, 'notificationIds', id);
      }
    },
  },
  {
    method: 'POST',
    path: '/api/notifications/read',
    access: 'signed-in',
    body: 'json',
    validBody: ({ rng, world }) =>
      obj({ ids: [pickOr(rng, world.pools.notificationIds, () => rng.uuid())] }),
  },
  {
    // Step-up (decision 072): the identity's own password, or a code.
    method: 'POST',
    path: '/api/reauth',
    access: 'signed-in',
    body: 'json',
    validBody: ({ rng, world, who }) =>
      rng.chance(0.8)
        ? obj({ password: who === 'staff' ? world.staff.password : world.customer.password })
        : obj({ code: rng.pick(['123456', 'ABCD-EFGH']) }),
  },
  // Customer two-factor (decision 072).
  { method: 'GET', path: '/api/two-factor', access: 'customer' },
  { method: 'POST', path: '/api/two-factor/setup', access: 'customer' },
  {
    method: 'POST',
    path: '/api/two-factor/enable',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) => obj({ code: rng.pick(['123456', '000000', ' 12 34 56 ']) }),
  },
  { method: 'POST', path: '/api/two-factor/disable', access: 'customer' },
  { method: 'POST', path: '/api/logout', access: 'public', ownSession: true },
  { method: 'GET', path: '/api/logout', access: 'public', ownSession: true },
  { method: 'GET', path: '/api/login', access: 'public' },
  { method: 'GET', path: '/api/auth/user', access: 'signed-in' },
  { method: 'GET', path: '/api/auth/session', access: 'public' },

  // files
  {
    method: 'POST',
    path: '/api/upload-card-image',
    access: 'customer',
    body: 'multipart',
    learn: ({ json, who }, world) => {
      const objectPath = asRecord(json).objectPath;
      if (who === 'customer' && typeof objectPath === 'string') {
        addToPool(world, 'customerCardImages', objectPath);
      }
    },
  },
  {
    method: 'POST',
    path: '/api/upload-verification-document',
    access: 'customer',
    body: 'multipart',
    learn: ({ json, who }, world) => {
      const objectPath = asRecord(json).objectPath;
      if (who === 'customer' && typeof objectPath === 'string') {
        addToPool(world, 'verificationDocuments', objectPath);
      }
    },
  },
  {
    method: 'POST',
    path: '/api/chat/upload-attachment',
    access: 'signed-in',
    body: 'multipart',
    learn: ({ json, who }, world) => {
      const url = asRecord(json).url;
      if (typeof url !== 'string') return;
      addToPool(world, who === 'staff' ? 'staffChatFiles' : 'customerChatFiles', url);
    },
  },
  {
    method: 'GET',
    path: '/objects/*',
    access: 'signed-in',
    param: ({ rng, world }) =>
      keyOf(
        pickOr(
          rng,
          [
            ...world.pools.customerCardImages,
            ...world.pools.claimedCardImages,
            ...world.pools.otherCardImages,
            ...world.pools.customerChatFiles,
            ...world.pools.staffChatFiles,
            ...world.pools.otherChatFiles,
            ...world.pools.verificationDocuments,
          ],
          () => `/objects/cards/${rng.uuid()}.jpg`,
        ),
      ),
    check: ({ param, who }, world) =>
      who === 'customer' && param?.startsWith('verification/')
        ? 'a customer was served an identity document'
        : who === 'customer' &&
            (foreign(world, 'otherCardImages', `/objects/${param}`) ||
              foreign(world, 'otherChatFiles', `/objects/${param}`))
          ? "a customer was served another customer's file"
          : null,
  },

  // payment methods
  { method: 'GET', path: '/api/payment-methods', access: 'signed-in' },
  {
    method: 'POST',
    path: '/api/payment-methods',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) => paymentMethodBody(rng),
    check: ({ json }) => {
      const m = asRecord(json);
      if (m.type === 'bank_transfer' && !(m.accountNumber && m.bankName && m.routingNumber)) {
        return 'a bank transfer method was created without its bank fields';
      }
      return null;
    },
    learn: ({ json }, world) => {
      const id = asRecord(json).id;
      if (typeof id === 'string') addToPool(world, 'customerMethods', id);
    },
  },
  {
    method: 'PATCH',
    path: '/api/payment-methods/:id',
    access: 'customer',
    body: 'json',
    param: ({ rng, world }) =>
      pickOr(rng, [...world.pools.customerMethods, ...world.pools.otherMethods], () => rng.uuid()),
    validBody: ({ rng }) => paymentMethodBody(rng),
    check: ({ json, param }, world) => {
      if (foreign(world, 'otherMethods', param)) {
        return "a customer changed another customer's payment method";
      }
      const m = asRecord(json);
      if (m.type === 'bank_transfer' && !(m.accountNumber && m.bankName && m.routingNumber)) {
        return 'a payment method became a bank transfer without its bank fields';
      }
      return null;
    },
  },
  {
    method: 'DELETE',
    path: '/api/payment-methods/:id',
    access: 'customer',
    param: ({ rng, world }) =>
      pickOr(rng, [...world.pools.customerMethods, ...world.pools.otherMethods], () => rng.uuid()),
    check: ({ param }, world) =>
      foreign(world, 'otherMethods', param)
        ? "a customer deleted another customer's payment method"
        : null,
    learn: ({ param }, world) => {
      if (param) removeFromPool(world, 'customerMethods', param);
    },
  },

  // cards
  {
    method: 'POST',
    path: '/api/transactions',
    access: 'customer',
    body: 'json',
    validBody: transactionBody,
    prepare: async (app, world) => {
      const customer = {
        cookie: world.customer.cookie,
        user: { ...world.customer, isAdmin: false },
      };
      if (world.pools.customerMethods.length === 0) {
        addToPool(world, 'customerMethods', (await addPaymentMethod(app, customer)).id);
      }
      while (world.pools.customerCardImages.length < 3) {
        addToPool(world, 'customerCardImages', await uploadCardImage(app, customer));
      }
    },
    check: ({ json }, world) => {
      const t = asRecord(json);
      if (t.status !== 'pending' || t.paymentStatus !== 'pending' || t.paymentAmount !== null) {
        return `a new transaction was not pending/unpaid: ${t.status}/${t.paymentStatus}/${t.paymentAmount}`;
      }
      // Rates are staff-managed (and fuzzed): the stored payout must follow the stored rate.
      if (typeof t.payoutRate === 'string' && typeof t.cardValue === 'string') {
        const payout = expectedPayout(t.cardValue, t.payoutRate);
        if (Number(t.expectedPayout) !== Number(payout)) {
          return `expected payout ${t.expectedPayout} is not ${payout} at ${t.payoutRate}`;
        }
        if (Number(t.payoutRate) < 0.01 || Number(t.payoutRate) > 1) {
          return `payout rate ${t.payoutRate} is outside 0.01-1`;
        }
      }
      if (foreign(world, 'otherMethods', t.paymentMethodId)) {
        return "a transaction was paid to another customer's payment method";
      }
      const images = Array.isArray(t.imageUrls) ? t.imageUrls : [];
      if (images.length === 0) return 'a transaction was created without images';
      if (images.some((i) => foreign(world, 'otherCardImages', i))) {
        return "a transaction claimed another customer's image";
      }
      return null;
    },
    learn: ({ json }, world) => {
      const t = asRecord(json);
      if (typeof t.id === 'string') addToPool(world, 'customerTransactions', t.id);
      for (const image of Array.isArray(t.imageUrls) ? t.imageUrls : []) {
        if (typeof image !== 'string') continue;
        removeFromPool(world, 'customerCardImages', image);
        addToPool(world, 'claimedCardImages', image);
      }
    },
  },
  { method: 'GET', path: '/api/transactions', access: 'signed-in' },
  { method: 'GET', path: '/api/transactions/recent', access: 'signed-in' },
  { method: 'GET', path: '/api/stats', access: 'signed-in' },
  { method: 'GET', path: '/api/stats/earnings', access: 'signed-in' },
  {
    method: 'GET',
    path: '/api/transactions/:id/receipt',
    access: 'signed-in',
    param: anyTransaction,
    check: ({ param, who }, world) =>
      who === 'customer' && foreign(world, 'otherTransactions', param)
        ? "a customer got another customer's receipt"
        : null,
  },
  {
    method: 'POST',
    path: '/api/transactions/:id/feedback',
    access: 'customer',
    body: 'json',
    param: anyTransaction,
    validBody: ({ rng }) =>
      obj({
        rating: rng.int(1, 5),
        ...(rng.chance(0.5) ? { comment: rng.pick(['Fast payout!', 'Slow.\nBut paid.', '']) } : {}),
      }),
    check: ({ param, json }, world) => {
      if (foreign(world, 'otherTransactions', param)) {
        return "a customer rated another customer's card";
      }
      const rating = asRecord(json).rating;
      return typeof rating === 'number' && Number.isInteger(rating) && rating >= 1 && rating <= 5
        ? null
        : `a rating of ${String(rating)} was kept`;
    },
  },

  // fair dealing (decision 073): offers and appeals
  ...(['accept', 'decline'] as const).map(
    (answer): RouteSpec => ({
      method: 'POST',
      path: `/api/transactions/:id/offer/${answer}`,
      access: 'customer',
      param: anyTransaction,
      check: ({ param }, world) =>
        foreign(world, 'otherTransactions', param)
          ? `a customer answered (${answer}) another customer's offer`
          : null,
    }),
  ),
  {
    method: 'POST',
    path: '/api/transactions/:id/appeal',
    access: 'customer',
    body: 'json',
    param: anyTransaction,
    validBody: ({ rng, world }) =>
      obj({
        message: rng.pick([
          'The balance was right, see the receipt.',
          'Please look again.\nThanks',
        ]),
        ...(rng.chance(0.3) && world.pools.customerCardImages.length > 0
          ? { imageUrls: [rng.pick(world.pools.customerCardImages)] }
          : {}),
      }),
    check: ({ param }, world) =>
      foreign(world, 'otherTransactions', param)
        ? "a customer appealed another customer's card"
        : null,
  },
  // a seller withdraws a pending card (issue 43 item 19, decision 135)
  {
    method: 'POST',
    path: '/api/transactions/:id/withdraw',
    access: 'customer',
    param: anyTransaction,
    check: ({ param }, world) =>
      foreign(world, 'otherTransactions', param)
        ? "a customer withdrew another customer's card"
        : null,
  },
  {
    method: 'POST',
    path: '/api/admin/transactions/:id/claim',
    access: 'staff',
    body: 'json',
    param: anyTransaction,
    validBody: ({ rng }) =>
      obj(rng.pick<Record<string, JsonLike>>([{}, { takeOver: true }, { takeOver: false }])),
    check: ({ json }) =>
      typeof asRecord(json).claimedUntil === 'string' ? null : 'a claim had no claimedUntil',
  },
  {
    method: 'DELETE',
    path: '/api/admin/transactions/:id/claim',
    access: 'staff',
    param: anyTransaction,
  },
  {
    method: 'POST',
    path: '/api/admin/transactions/:id/offer',
    access: 'staff',
    body: 'json',
    param: anyTransaction,
    validBody: ({ rng }) =>
      obj({
        verifiedValue: rng.pick<JsonLike>(['40.00', '10', 25.5, '99999999.99']),
        note: rng.pick(['The balance is lower than entered', 'Balance checked by phone']),
      }),
    check: ({ json }) => {
      const offer = asRecord(asRecord(json).offer);
      return offer.status === 'pending' && typeof offer.amount === 'string'
        ? null
        : 'a new offer was not pending with an amount';
    },
  },
  {
    method: 'POST',
    path: '/api/admin/transactions/:id/appeal/decision',
    access: 'staff',
    body: 'json',
    param: anyTransaction,
    validBody: ({ rng }) =>
      obj({
        decision: rng.pick(['upheld', 'overturned']),
        note: rng.pick<JsonLike>(['The code was redeemed before', '', null]),
      }),
  },

  {
    method: 'GET',
    path: '/api/transactions/:id/timeline',
    access: 'signed-in',
    param: anyTransaction,
    check: ({ param, who, json }, world) => {
      if (who === 'customer' && foreign(world, 'otherTransactions', param)) {
        return "a customer got another customer's timeline";
      }
      return Array.isArray(json) && json.some((step) => 'by' in asRecord(step))
        ? "the customer's timeline named who did a step"
        : null;
    },
  },
  {
    method: 'GET',
    path: '/api/admin/transactions/:id/timeline',
    access: 'staff',
    param: anyTransaction,
  },
  { method: 'GET', path: '/api/review-times', access: 'public' },
  { method: 'GET', path: '/api/admin/review-summary', access: 'staff' },

  // staff
  { method: 'GET', path: '/api/admin/stats', access: 'staff' },
  {
    method: 'GET',
    path: '/api/admin/transactions',
    access: 'staff',
    query: {
      ...paged('transactionCursors'),
      search: ({ rng, world }) =>
        rng.pick(['amazon', 'example.com', world.customer.email.slice(0, 8), rng.hex(6), 'a']),
      status: ({ rng }) => rng.pick(['all', ...TRANSACTION_STATUSES]),
      validation: ({ rng }) => rng.pick(['all', 'flagged', 'passed', 'pending']),
      appeal: ({ rng }) => rng.pick(['all', 'pending', 'upheld', 'overturned']),
      sampled: ({ rng }) => rng.pick(['pending', 'confirmed', 'clawback', 'maybe']),
      sort: ({ rng }) => rng.pick(['newest', 'waiting', 'oldest']),
    },
    learn: ({ json, headers }, world) => {
      const next = headers['x-next-cursor'];
      if (typeof next === 'string') addToPool(world, 'transactionCursors', next);
      for (const row of Array.isArray(json) ? json : []) {
        const updatedAt = asRecord(row).updatedAt;
        if (typeof updatedAt === 'string') addToPool(world, 'updatedAts', updatedAt);
      }
    },
  },
  { method: 'GET', path: '/api/admin/transactions/:id', access: 'staff', param: anyTransaction },
  {
    method: 'PATCH',
    path: '/api/admin/transactions/:id',
    access: 'staff',
    body: 'json',
    param: anyTransaction,
    validBody: ({ rng, world }) => {
      const body: Record<string, JsonLike> = {};
      if (rng.chance(0.7)) body.status = rng.pick(TRANSACTION_STATUSES);
      if (rng.chance(0.5)) body.paymentStatus = rng.pick(PAYMENT_STATUSES);
      if (rng.chance(0.5))
        body.paymentAmount = rng.pick<JsonLike>(['85.00', '12.3', 40, '100000.00', null]);
      if (rng.chance(0.3)) body.adminNotes = rng.pick<JsonLike>(['Checked the PIN', null]);
      if (rng.chance(0.3)) {
        body.payoutReference = rng.pick<JsonLike>(['PP-7F3K2Q9X', '', null, 'x'.repeat(100)]);
      }
      if (body.status === 'rejected' || rng.chance(0.2)) {
        body.rejectionReason = rng.pick<JsonLike>([...REJECTION_REASONS, null]);
      }
      if (body.rejectionReason === 'other' || rng.chance(0.1)) {
        body.rejectionNote = rng.pick<JsonLike>(['The card is for another region', '', null]);
      }
      // Required (decision 108): most saves send one, a few leave it out and are refused.
      if (rng.chance(0.9) && world.pools.updatedAts.length > 0) {
        body.expectedUpdatedAt = rng.pick(world.pools.updatedAts);
      }
      return obj(body);
    },
    // The quote is a promise (decision 073): never paid below it without an accepted offer.
    check: ({ json }) => {
      const t = asRecord(json);
      const offer = asRecord(t.offer);
      const floor = offer.status === 'accepted' ? offer.amount : t.expectedPayout;
      return typeof t.paymentAmount === 'string' &&
        typeof floor === 'string' &&
        Number(t.paymentAmount) < Number(floor)
        ? `a payment amount of ${t.paymentAmount} is below the promised ${floor}`
        : null;
    },
  },
  {
    method: 'GET',
    path: '/api/admin/users',
    access: 'staff',
    query: paged('userCursors'),
    learn: learnCursor('userCursors'),
  },

  // payouts
  { method: 'GET', path: '/api/admin/payouts', access: 'staff' },
  {
    method: 'GET',
    path: '/api/admin/payouts.csv',
    access: 'staff',
    // Account numbers leave only as a download, never cached.
    check: ({ headers }) =>
      String(headers['content-type']).startsWith('text/csv') &&
      String(headers['content-disposition']).startsWith('attachment;') &&
      headers['cache-control'] === 'no-store'
        ? null
        : 'the payout CSV was not a no-store attachment',
  },
  {
    method: 'POST',
    path: '/api/admin/payouts/mark-sent',
    access: 'staff',
    body: 'json',
    validBody: (ctx) =>
      obj({
        items: [obj({ id: anyTransaction(ctx), amount: ctx.rng.pick(['91.00', '85.00', '0.15']) })],
        ...(ctx.rng.chance(0.5)
          ? { payoutReference: ctx.rng.pick<JsonLike>(['ACH-20260301-17', '', null]) }
          : {}),
      }),
    check: ({ json, body }) => {
      const answer = asRecord(json);
      const asked = (body ? JSON.parse(toJsonText(body)) : {}).items as {
        id: string;
        amount: string;
      }[];
      const sent = Array.isArray(answer.sent)
        ? (answer.sent as { id: string; amount: string }[])
        : [];
      const skipped = Array.isArray(answer.skipped) ? (answer.skipped as { id: string }[]) : [];
      if (sent.length + skipped.length !== asked.length) {
        return 'a card named to mark as sent was neither sent nor reported skipped';
      }
      for (const paid of sent) {
        const request = asked.find((a) => a.id === paid.id);
        if (!request || Number(request.amount) !== Number(paid.amount)) {
          return `a card was marked paid ${paid.amount}, not the amount shown`;
        }
      }
      return null;
    },
  },

  // API keys and the partner API (issue 42)
  { method: 'GET', path: '/api/api-keys', access: 'customer' },
  {
    method: 'POST',
    path: '/api/api-keys',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        name: rng.pick(['Shop', '', 'x'.repeat(101)]),
        scopes: rng.pick<JsonLike>([
          ['cards:read'],
          ['cards:write', 'balance:read'],
          [],
          ['admin'],
        ]),
        ...(rng.chance(0.3)
          ? {
              expiresAt: rng.pick<JsonLike>([
                '2099-01-01T00:00:00Z',
                '2000-01-01T00:00:00Z',
                'soon',
              ]),
            }
          : {}),
      }),
    check: ({ json }) =>
      /^cb_live_[0-9A-Za-z]{43}$/.test(String(asRecord(json).key))
        ? null
        : 'a created API key is not cb_live_ and 43 base62 digits',
  },
  {
    method: 'DELETE',
    path: '/api/api-keys/:id',
    access: 'customer',
    param: ({ rng }) => rng.uuid(),
  },
  {
    method: 'POST',
    path: '/api/v1/quotes',
    access: 'customer',
    bearer: true,
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        brand: rng.pick(BRANDS),
        value: rng.pick<JsonLike>(['100', '1', 75, '99999999.99']),
        format: rng.pick(CARD_FORMATS),
      }),
  },
  {
    method: 'POST',
    path: '/api/v1/cards',
    access: 'customer',
    bearer: true,
    body: 'json',
    validBody: partnerCardBody,
    check: ({ json }, world) => {
      const card = asRecord(json);
      if (card.status !== 'pending' || card.paymentStatus !== 'pending') {
        return `a partner's new card was not pending: ${card.status}/${card.paymentStatus}`;
      }
      return foreign(world, 'otherMethods', card.paymentMethodId)
        ? "a partner's card was paid to another customer's payment method"
        : null;
    },
    learn: ({ json }, world) => {
      const id = asRecord(json).id;
      if (typeof id === 'string') addToPool(world, 'customerTransactions', id);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/cards/bulk',
    access: 'customer',
    bearer: true,
    body: 'json',
    validBody: (ctx) =>
      obj({
        cards: Array.from({ length: ctx.rng.int(1, 3) }, () => partnerCardBody(ctx)) as JsonLike,
      }),
  },
  {
    method: 'GET',
    path: '/api/v1/cards',
    access: 'customer',
    bearer: true,
    query: {
      status: ({ rng }) => rng.pick([...TRANSACTION_STATUSES, 'nope']),
      limit: ({ rng }) => rng.pick(['1', '50', '100', '0', '1000']),
    },
  },
  {
    method: 'GET',
    path: '/api/v1/cards/:id',
    access: 'customer',
    bearer: true,
    param: ({ rng, world }) =>
      pickOr(rng, [...world.pools.customerTransactions, ...world.pools.otherTransactions], () =>
        rng.uuid(),
      ),
    check: ({ param }, world) =>
      foreign(world, 'otherTransactions', param) ? "a partner read another customer's card" : null,
  },
  { method: 'GET', path: '/api/v1/balance', access: 'customer', bearer: true },
  { method: 'GET', path: '/api/v1/openapi.json', access: 'public' },
  { method: 'GET', path: '/api/v1/webhook-endpoints', access: 'customer', bearer: true },
  {
    method: 'POST',
    path: '/api/v1/webhook-endpoints',
    access: 'customer',
    bearer: true,
    body: 'json',
    // Refused before any connection (private, loopback, link-local, http, unresolvable).
    validBody: ({ rng }) =>
      obj({
        url: rng.pick([
          'https://127.0.0.1/hook',
          'https://169.254.169.254/latest',
          'http://example.com/hook',
          'https://10.0.0.1/',
          'https://[::1]/',
          'not a url',
          'https://invalid./',
        ]),
        events: rng.pick<JsonLike>([
          ['card.updated'],
          ['payout.updated', 'card.updated'],
          [],
          ['x'],
        ]),
      }),
  },
  ...[
    ['DELETE', '/api/v1/webhook-endpoints/:id'],
    ['GET', '/api/v1/webhook-endpoints/:id/deliveries'],
    ['POST', '/api/v1/webhook-endpoints/:id/test'],
    ['POST', '/api/v1/webhook-endpoints/:id/rotate-secret'],
    ['POST', '/api/v1/webhook-endpoints/:id/deliveries/:deliveryId/resend'],
  ].map(
    ([method, path]): RouteSpec => ({
      method: method as RouteSpec['method'],
      path: path!,
      access: 'customer',
      bearer: true,
      param: ({ rng }) => rng.uuid(),
    }),
  ),
  // The same endpoints from the profile, by the cookie session (issue 42, decision 146).
  { method: 'GET', path: '/api/webhook-endpoints', access: 'customer' },
  {
    method: 'POST',
    path: '/api/webhook-endpoints',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        url: rng.pick(['https://127.0.0.1/hook', 'http://example.com/hook', 'not a url']),
        events: rng.pick<JsonLike>([['card.updated'], ['clawback.created'], [], ['x']]),
      }),
  },
  ...[
    ['DELETE', '/api/webhook-endpoints/:id'],
    ['GET', '/api/webhook-endpoints/:id/deliveries'],
    ['POST', '/api/webhook-endpoints/:id/test'],
    ['POST', '/api/webhook-endpoints/:id/rotate-secret'],
    ['POST', '/api/webhook-endpoints/:id/deliveries/:deliveryId/resend'],
  ].map(
    ([method, path]): RouteSpec => ({
      method: method as RouteSpec['method'],
      path: path!,
      access: 'customer',
      param: ({ rng }) => rng.uuid(),
    }),
  ),

  // payouts on rails (issue 40)
  { method: 'GET', path: '/api/admin/payout-rails', access: 'staff' },
  {
    method: 'PUT',
    path: '/api/admin/payout-rails/:rail',
    access: 'staff',
    body: 'json',
    param: ({ rng }) => rng.pick(['manual', 'ach', 'usdt_bep20', 'nope']),
    validBody: ({ rng }) => obj({ autoPayout: rng.pick<JsonLike>([true, false, 'yes']) }),
  },
  {
    method: 'POST',
    path: '/api/admin/disbursements',
    access: 'staff',
    body: 'json',
    validBody: (ctx) =>
      obj({ transactionIds: ctx.rng.pick<JsonLike>([[anyTransaction(ctx)], [], ['x']]) }),
  },
  {
    method: 'GET',
    path: '/api/admin/disbursements',
    access: 'staff',
    query: {
      status: ({ rng }) => rng.pick(['queued', 'failed', 'nope', '']),
      cursor: ({ rng }) => rng.pick(['', 'x', 'WyIyMDI2LTAxLTAxIiwibm8iXQ']),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/disbursements/:id',
    access: 'staff',
    param: ({ rng }) => rng.uuid(),
  },
  {
    method: 'POST',
    path: '/api/admin/disbursements/:id/retry',
    access: 'staff',
    param: ({ rng }) => rng.uuid(),
  },
  {
    method: 'POST',
    path: '/api/admin/disbursements/:id/cancel',
    access: 'staff',
    param: ({ rng }) => rng.uuid(),
  },
  {
    method: 'POST',
    path: '/api/admin/ach-batches',
    access: 'staff',
    body: 'json',
    validBody: ({ rng }) => obj(rng.chance(0.5) ? { disbursementIds: [rng.uuid()] } : {}),
  },
  {
    method: 'GET',
    path: '/api/admin/ach-batches/:id/file',
    access: 'staff',
    param: ({ rng }) => rng.uuid(),
  },
  {
    method: 'POST',
    path: '/api/admin/ach-batches/:id/settled',
    access: 'staff',
    param: ({ rng }) => rng.uuid(),
  },
  { method: 'POST', path: '/api/admin/ach-returns', access: 'staff', body: 'multipart' },
  { method: 'GET', path: '/api/admin/ach-batches', access: 'staff' },

  // the books (issue 39)
  { method: 'GET', path: '/api/balance', access: 'signed-in' },
  {
    method: 'GET',
    path: '/api/balance/statement',
    access: 'signed-in',
    query: { cursor: ({ rng }) => rng.pick(['', '12', '999999999', '-1', 'abc']) },
  },
  { method: 'GET', path: '/api/balance/statement.csv', access: 'signed-in' },
  {
    method: 'GET',
    path: '/api/admin/ledger/trial-balance',
    access: 'staff',
    check: ({ json }) => {
      const tb = asRecord(json);
      return tb.balanced === true && tb.debits === tb.credits
        ? null
        : 'the trial balance did not balance';
    },
  },
  {
    method: 'GET',
    path: '/api/admin/ledger/entries',
    access: 'staff',
    query: {
      transactionId: anyTransaction,
      customerId: ({ rng, world }) => rng.pick([world.customer.id, world.other.id, 'nope']),
      cursor: ({ rng }) => rng.pick(['', '5', 'x']),
    },
  },
  { method: 'GET', path: '/api/admin/ledger/books', access: 'staff' },
  {
    method: 'GET',
    path: '/api/admin/ledger/export.csv',
    access: 'staff',
    query: {
      from: ({ rng }) => rng.pick(['2026-01-01', '2026-13-01', '2026-02-30', '']),
      to: ({ rng }) => rng.pick(['2026-12-31', '2027-00-10', '2025-01-01']),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/transactions/:id/clawbacks',
    access: 'staff',
    param: anyTransaction,
  },
  {
    method: 'POST',
    path: '/api/admin/transactions/:id/clawback',
    access: 'staff',
    body: 'json',
    // The other customer's cards only: clawbacks count towards the automatic suspension, which
    // would end the customer identity's writes.
    param: ({ rng, world }) => pickOr(rng, world.pools.otherTransactions, () => rng.uuid()),
    validBody: ({ rng }) =>
      obj({
        amount: rng.pick<JsonLike>(['10.00', '91.00', '0.01', '99999999.99', 5]),
        reason: rng.pick(['already_redeemed', 'balance_differs', 'chargeback', 'other']),
        ...(rng.chance(0.6) ? { note: rng.pick(['Spent on Nov 20', '']) } : {}),
      }),
  },
  {
    method: 'POST',
    path: '/api/admin/clawbacks/:id/write-off',
    access: 'staff',
    body: 'json',
    param: ({ rng }) => rng.uuid(),
    validBody: ({ rng }) => obj({ note: rng.pick(['Seller closed the account', '']) }),
  },
  {
    method: 'POST',
    path: '/api/admin/reconciliation/statements',
    access: 'staff',
    body: 'multipart',
  },
  { method: 'GET', path: '/api/admin/reconciliation/statements', access: 'staff' },

  // chat
  { method: 'GET', path: '/api/chat/messages', access: 'signed-in' },
  {
    method: 'POST',
    path: '/api/chat/messages',
    access: 'signed-in',
    body: 'json',
    validBody: ({ rng, world, who }) => {
      const files = who === 'staff' ? world.pools.staffChatFiles : world.pools.customerChatFiles;
      return obj({
        message: rng.pick(['Hello, is my card processed?', 'Thanks!', '']),
        ...(rng.chance(0.4) && files.length > 0 ? { attachmentUrl: rng.pick(files) } : {}),
        ...(who === 'staff' ? { userId: rng.pick([world.customer.id, world.other.id]) } : {}),
      });
    },
    check: ({ json, who }, world) => {
      const m = asRecord(json);
      if (who === 'customer' && (m.userId !== world.customer.id || m.senderType !== 'user')) {
        return `a customer's message went to ${m.userId} as ${m.senderType}`;
      }
      if (who === 'customer' && foreign(world, 'otherChatFiles', m.attachmentUrl)) {
        return "a customer attached another customer's file";
      }
      if (who === 'staff' && m.senderType !== 'admin') return 'a staff reply was not from admin';
      return null;
    },
  },
  { method: 'GET', path: '/api/admin/chats', access: 'staff' },
  {
    method: 'GET',
    path: '/api/admin/conversations',
    access: 'staff',
    query: paged('conversationCursors'),
    learn: learnCursor('conversationCursors'),
  },
  {
    method: 'GET',
    path: '/api/admin/conversations/:userId',
    access: 'staff',
    param: ({ rng, world }) => rng.pick(world.pools.userIds),
  },
  {
    method: 'POST',
    path: '/api/admin/conversations/:userId/read',
    access: 'staff',
    body: 'json',
    param: ({ rng, world }) => rng.pick(world.pools.userIds),
    validBody: () => obj({}),
  },
  {
    method: 'DELETE',
    path: '/api/admin/chats',
    access: 'staff',
    learn: (_success, world) => {
      // Every chat file is gone with the messages.
      world.pools.customerChatFiles.length = 0;
      world.pools.staffChatFiles.length = 0;
    },
  },

  // rates
  { method: 'GET', path: '/api/rates', access: 'public' },
  { method: 'GET', path: '/api/admin/rates', access: 'staff' },
  { method: 'GET', path: '/api/admin/rates/history', access: 'staff' },
  {
    method: 'POST',
    path: '/api/admin/rates',
    access: 'staff',
    body: 'json',
    validBody: ({ rng }) =>
      obj({ brand: `Fuzz Brand ${rng.hex(4)}`, rate: rng.pick(['0.8', '0.75']), minimum: '25' }),
  },
  {
    method: 'PUT',
    path: '/api/admin/rates/:brand',
    access: 'staff',
    body: 'json',
    param: ({ rng }) => encodeURIComponent(rng.pick([...BRANDS, 'No Such Brand'])),
    validBody: ({ rng }) =>
      obj(
        rng.chance(0.2)
          ? { retired: rng.chance(0.5) }
          : rng.chance(0.3)
            ? {
                tiers: [
                  obj({
                    format: rng.pick(['physical', 'egift', 'any', 'paper']),
                    minValue: rng.pick<JsonLike>(['0', '100', '99.999', -5]),
                    maxValue: rng.pick<JsonLike>([null, '499.99', '50', 'lots']),
                    rate: rng.pick(['0.82', '0.5', '1.2']),
                  }),
                ],
              }
            : { rate: rng.pick(['0.91', '0.85', '0.5']), minimum: rng.pick(['25', '50']) },
      ),
  },

  // rate alerts (issue 41, decision 132)
  { method: 'GET', path: '/api/rate-alerts', access: 'customer' },
  {
    method: 'POST',
    path: '/api/rate-alerts',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        brand: rng.pick(['Amazon', 'amazon', 'No Such Brand', 'Other', '']),
        format: rng.pick<JsonLike>(['physical', 'egift', null, 'paper']),
        minRate: rng.pick<JsonLike>(['0.95', 0.9, '1.5', '.9']),
      }),
  },
  {
    method: 'DELETE',
    path: '/api/rate-alerts/:id',
    access: 'customer',
    param: ({ rng }) => rng.pick([rng.uuid(), 'not-an-id']),
  },

  // instant decisions (issue 41, decision 131)
  { method: 'GET', path: '/api/admin/instant-decisions', access: 'staff' },
  {
    method: 'PUT',
    path: '/api/admin/instant-decisions',
    access: 'staff',
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        enabled: rng.chance(0.5),
        minLevel: rng.pick([0, 1, 2, 3, 1.5]),
        minCompletedCards: rng.pick([0, 10, -1]),
        maxCardValue: rng.pick(['200', '200.001', 150]),
        maxDailyTotal: rng.pick(['500.00', '0']),
        brands: rng.pick<JsonLike>([['Amazon'], [], ['']]),
        sampleRate: rng.pick<JsonLike>([0.1, '0.25', 2, 1]),
      }),
  },
  {
    method: 'POST',
    path: '/api/admin/transactions/:id/sample-review',
    access: 'staff',
    body: 'json',
    param: anyTransaction,
    validBody: ({ rng }) => obj({ outcome: rng.pick(['confirmed', 'clawback', 'later']) }),
  },

  // verified sellers (decision 072)
  { method: 'GET', path: '/api/verification', access: 'customer' },
  {
    method: 'POST',
    path: '/api/verification',
    access: 'customer',
    body: 'json',
    validBody: ({ rng, world }) => {
      const docs = world.pools.verificationDocuments;
      const doc = () => pickOr(rng, docs, () => `/objects/verification/${rng.uuid()}.jpg`);
      return rng.chance(0.7)
        ? obj({
            level: 1,
            legalFirstName: 'Casey',
            legalLastName: 'Customer',
            dateOfBirth: rng.pick(['1990-04-01', '2015-01-01', '2000-02-30']),
            country: rng.pick(['US', 'gb', 'USA']),
            documentType: rng.pick(['passport', 'driving_licence', 'national_id']),
            documentImages: [doc()],
            selfieImage: doc(),
          })
        : obj({
            level: 2,
            addressLine1: '1 Main Street',
            city: 'Springfield',
            ...(rng.chance(0.8) ? { region: rng.pick(['IL', 'Ontario', '']) } : {}),
            postalCode: '12345',
            country: rng.pick(['US', 'GB', 'CA']),
            proofImages: [doc()],
          });
    },
  },
  {
    method: 'GET',
    path: '/api/admin/verifications',
    access: 'staff',
    query: {
      status: ({ rng }) => rng.pick(['pending', 'approved', 'rejected', 'all']),
      ...paged('verificationCursors'),
    },
    learn: (success, world) => {
      learnCursor('verificationCursors')(success, world);
      if (!Array.isArray(success.json)) return;
      for (const row of success.json) {
        const id = asRecord(row).id;
        if (typeof id === 'string') addToPool(world, 'verificationIds', id);
      }
    },
  },
  {
    method: 'GET',
    path: '/api/admin/verifications/:id',
    access: 'staff',
    param: ({ rng, world }) => pickOr(rng, world.pools.verificationIds, () => rng.uuid()),
  },
  {
    method: 'POST',
    path: '/api/admin/verifications/:id/decision',
    access: 'staff',
    body: 'json',
    param: ({ rng, world }) => pickOr(rng, world.pools.verificationIds, () => rng.uuid()),
    validBody: ({ rng }) =>
      rng.chance(0.5)
        ? obj({ decision: 'approve' })
        : obj({
            decision: 'reject',
            reason: rng.pick(['document_unreadable', 'under_18', 'other']),
            note: 'Blurry photo',
          }),
  },
  // Account standing: on the other customer only (the customer identity keeps its session).
  ...(['suspend', 'close', 'reinstate'] as const).map(
    (action): RouteSpec => ({
      method: 'POST',
      path: `/api/admin/users/:id/${action}`,
      access: 'staff',
      body: 'json',
      param: ({ rng, world }) => (rng.chance(0.6) ? world.other.id : rng.uuid()),
      validBody: ({ rng }) =>
        action === 'reinstate'
          ? obj({})
          : obj({ reason: rng.pick(['Stolen cards reported', 'Asked to close']), note: 'Fuzz' }),
    }),
  ),
  // Analytics (issue 21)
  ...(['/api/admin/analytics', '/api/admin/analytics.csv'] as const).map(
    (path): RouteSpec => ({
      method: 'GET',
      path,
      access: 'staff',
      query: {
        from: ({ rng }) => rng.pick(['2026-01-01', '2026-11-01', '2026-02-30', 'x', '2020-01-01']),
        to: ({ rng }) => rng.pick(['2026-01-31', '2026-11-24', '2025-12-31', '']),
      },
    }),
  ),
  // Staff erase (decision 083): only ids of no one, so the fuzzer's own accounts stay.
  {
    method: 'POST',
    path: '/api/admin/users/:id/erase',
    access: 'staff',
    body: 'json',
    param: ({ rng }) => rng.uuid(),
    validBody: ({ rng }) => obj({ whenSettled: rng.chance(0.5) }),
    check: () => 'a user that does not exist was erased',
  },
  { method: 'GET', path: '/api/admin/limits', access: 'staff' },
  { method: 'GET', path: '/api/admin/limits/history', access: 'staff' },
  {
    method: 'PUT',
    path: '/api/admin/limits/:level',
    access: 'staff',
    body: 'json',
    param: ({ rng }) => rng.pick(['0', '1', '2', '3']),
    // Generous values: the fuzzer's own card submissions keep passing.
    validBody: ({ rng }) =>
      obj({
        perCard: rng.pick(['100000', '99999999.99']),
        perDay: '99999999.99',
        per30Days: '99999999.99',
      }),
  },

  // support
  { method: 'GET', path: '/api/support-tickets', access: 'signed-in' },
  {
    method: 'POST',
    path: '/api/support-tickets',
    access: 'customer',
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        email: 'casey@example.com',
        subject: 'Where is my payout?',
        message: 'I sent my card yesterday.\nIt still shows pending.',
        ...(rng.chance(0.3) ? { attachmentUrl: 'https://example.com/screenshot.png' } : {}),
      }),
    check: ({ json }) => (asRecord(json).status === 'open' ? null : 'a new ticket was not open'),
    learn: ({ json }, world) => {
      const id = asRecord(json).id;
      if (typeof id === 'string') addToPool(world, 'tickets', id);
    },
  },
  {
    method: 'GET',
    path: '/api/admin/support-tickets',
    access: 'staff',
    query: {
      ...paged('ticketCursors'),
      status: ({ rng }) => rng.pick(['all', ...TICKET_STATUSES]),
      awaiting: ({ rng }) => rng.pick(['staff', 'all']),
    },
    learn: learnCursor('ticketCursors'),
  },
  {
    method: 'GET',
    path: '/api/support-tickets/:id',
    access: 'customer',
    param: anyTicket,
    check: ({ param }, world) =>
      foreign(world, 'otherTickets', param) ? "a customer got another customer's ticket" : null,
  },
  {
    method: 'POST',
    path: '/api/support-tickets/:id/replies',
    access: 'customer',
    body: 'json',
    param: anyTicket,
    validBody: ticketReplyBody,
    check: ({ param, json }, world) => {
      if (foreign(world, 'otherTickets', param)) {
        return "a customer wrote in another customer's ticket";
      }
      return asRecord(json).authorKind === 'user' ? null : 'a customer reply was not theirs';
    },
  },
  {
    method: 'GET',
    path: '/api/admin/support-tickets/:id',
    access: 'staff',
    param: anyTicket,
  },
  {
    method: 'POST',
    path: '/api/admin/support-tickets/:id/replies',
    access: 'staff',
    body: 'json',
    param: anyTicket,
    validBody: ticketReplyBody,
    check: ({ json }) =>
      asRecord(json).authorKind === 'admin' ? null : 'a staff reply was not from staff',
  },
  {
    method: 'PATCH',
    path: '/api/admin/support-tickets/:id',
    access: 'staff',
    body: 'json',
    param: anyTicket,
    validBody: ({ rng }) => obj({ status: rng.pick(TICKET_STATUSES) }),
  },

  // staff management (issue 21; the fuzzer's staff account is an owner)
  { method: 'GET', path: '/api/admin/staff', access: 'staff' },
  {
    method: 'POST',
    path: '/api/admin/staff/invitations',
    access: 'staff',
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        email: `invitee-${rng.hex(8)}@example.com`,
        role: rng.pick(['owner', 'reviewer', 'support', 'finance']),
      }),
  },
  {
    method: 'PATCH',
    path: '/api/admin/staff/:id',
    access: 'staff',
    body: 'json',
    // Never the fuzzer's own account: a made-up id (404).
    param: ({ rng }) => rng.uuid(),
    validBody: ({ rng }) => obj({ role: rng.pick(['reviewer', 'support', 'finance']) }),
  },
  {
    method: 'POST',
    path: '/api/admin/staff/:id/invitation',
    access: 'staff',
    // A made-up id (404): never a real invitation's.
    param: ({ rng }) => rng.uuid(),
  },
  {
    method: 'POST',
    path: '/api/staff-invitations/preview',
    access: 'public',
    body: 'json',
    validBody: ({ rng }) => obj({ token: rng.hex(43) }),
    check: () => 'a made-up invitation token named an invitation',
  },
  {
    method: 'POST',
    path: '/api/staff-invitations/accept',
    access: 'public',
    body: 'json',
    validBody: ({ rng }) =>
      obj({
        token: rng.hex(43),
        password: 'a brand new secret 9',
        firstName: 'In',
        lastName: 'Vite',
      }),
    check: () => 'a made-up invitation token made a staff account',
  },

  // live updates
  { method: 'GET', path: '/api/events', access: 'signed-in', streaming: true },

  // operations (503 from /readyz only when the database or storage is down: a real outage)
  { method: 'GET', path: '/healthz', access: 'public' },
  { method: 'GET', path: '/readyz', access: 'public' },
  // 404 unless METRICS_TOKEN is set, 401 without the token: public as far as the fuzzer knows.
  { method: 'GET', path: '/metrics', access: 'public' },

  // API documentation (OpenAPI and its UI)
  ...[
    '/api/openapi.json',
    '/api/docs',
    '/api/docs/',
    '/api/docs/json',
    '/api/docs/yaml',
    '/api/docs/static/index.html',
    '/api/docs/static/swagger-initializer.js',
  ].map((path): RouteSpec => ({ method: 'GET', path, access: 'public' })),
  {
    method: 'GET',
    path: '/api/docs/static/*',
    access: 'public',
    param: ({ rng }) =>
      rng.pick(['swagger-ui.css', 'swagger-ui-bundle.js', 'index.css', 'favicon-32x32.png']),
  },
  // A page per customer (issue 43 item 15, decisions 144 and 145): staff only.
  {
    method: 'GET',
    path: '/api/admin/users/:id',
    access: 'staff',
    param: ({ rng, world }) =>
      rng.chance(0.7) ? rng.pick([world.customer.id, world.other.id]) : rng.uuid(),
  },
  ...(['transactions', 'payouts', 'notes'] as const).map(
    (section): RouteSpec => ({
      method: 'GET',
      path: `/api/admin/users/:id/${section}`,
      access: 'staff',
      param: ({ rng, world }) => (rng.chance(0.7) ? world.other.id : rng.uuid()),
      query: paged('transactionCursors'),
    }),
  ),
  {
    method: 'POST',
    path: '/api/admin/users/:id/notes',
    access: 'staff',
    body: 'json',
    param: ({ rng, world }) => (rng.chance(0.7) ? world.other.id : rng.uuid()),
    validBody: ({ rng }) =>
      obj({ body: rng.pick(['Called them back', 'x'.repeat(2000), 'Asked for the receipt']) }),
  },
];

/** Query parameters any list might read (paging and filters added later get fuzzed too). */
export const GENERIC_QUERY_KEYS = ['limit', 'cursor', 'status', 'search', 'page', 'offset', 'q'];

export interface RegisteredRoute {
  method: string;
  path: string;
}

/**
 * The routes the app has, read from Fastify's route tree (`printRoutes`), without the HEAD twins
 * of GET routes.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const stack: string[] = [];
  const routes: RegisteredRoute[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const marker = line.indexOf('── ');
    if (marker < 0) continue;
    const depth = (marker - 1) / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(marker + 3))!;
    stack.length = depth;
    stack.push(match[1]!);
    if (!match[2]) continue;
    const path = stack.join('');
    for (const method of match[2].split(', ')) {
      if (method !== 'HEAD') routes.push({ method, path });
    }
  }
  return routes;
}

/** The catalogue's spec for every registered route; a generic one where it has none. */
export function routesToFuzz(app: FastifyInstance): {
  routes: RouteSpec[];
  uncatalogued: string[];
} {
  const registered = registeredRoutes(app);
  const known = new Map(CATALOGUE.map((r) => [routeKey(r), r]));
  const routes: RouteSpec[] = [];
  const uncatalogued: string[] = [];
  for (const { method, path } of registered) {
    const spec = known.get(`${method} ${path}`);
    if (spec) {
      routes.push(spec);
      continue;
    }
    uncatalogued.push(`${method} ${path}`);
    routes.push({
      method: method as RouteSpec['method'],
      path,
      // Unknown: the strictest reading, so no access expectation is asserted (generic).
      access: 'public',
      body: method === 'GET' || method === 'DELETE' ? undefined : 'json',
      validBody: () => new JsonObject(),
      generic: true,
    });
  }
  return { routes, uncatalogued };
}
