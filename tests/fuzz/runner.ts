/**
 * The fuzz driver shared by tests/api/fuzz.test.ts and scripts/fuzz.ts: builds a small world
 * (two customers with methods, images, cards, chats and tickets; one staff member), then sends
 * generated requests to every route as anonymous, customer and staff through `app.inject`,
 * checks each answer's contract, and counts everything. A raw-socket pass sends what inject
 * cannot (unknown methods, broken request lines and headers, chunked bodies).
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { users } from '../../src/server/db/schema';
import { identityBody } from '../api/builders';
import {
  as,
  fixture,
  multipart,
  type SignedIn,
  sessionCookie,
  sessionFor,
  signInStaff,
  signUp,
  submitCard,
  type TestApp,
  uploadCardImage,
} from '../api/helpers';
import {
  type Account,
  addToPool,
  allows,
  CATALOGUE,
  GENERIC_QUERY_KEYS,
  type GenContext,
  IDENTITIES,
  POOL_NAMES,
  type PoolName,
  type RouteSpec,
  routeKey,
  routesToFuzz,
  type Who,
  type World,
} from './catalogue';
import {
  badCursor,
  badId,
  badQueryTail,
  brokenJson,
  EMAIL_STRINGS,
  encodeLoose,
  evilString,
  fieldCorpusValues,
  type GenOptions,
  JsonObject,
  multipartCase,
  multipartCorpus,
  mutateBody,
  NUMERIC_STRINGS,
  ODD_JSON_CONTENT_TYPES,
  oddHeaders,
  queryCorpusValues,
  queryValue,
  toJsonText,
  UNICODE_ODDITIES,
} from './generators';
import { type Answer, contractViolations } from './invariants';
import { Rng } from './rng';

// ---------------------------------------------------------------------------------------------
// The world

const PASSWORD = 'correct horse battery';
const STAFF_PASSWORD = 'staff password 1';

async function json(response: { statusCode: number; body: string }, what: string) {
  if (response.statusCode >= 300)
    throw new Error(`${what} failed: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body);
}

async function customerWithData(t: TestApp, pools: Record<PoolName, string[]>, mine: boolean) {
  const who = await signUp(t.app, { password: PASSWORD });
  const card = await json(await submitCard(t.app, who), 'card');
  const method = await json(
    await as(t.app, who, {
      method: 'POST',
      url: '/api/payment-methods',
      payload: {
        type: 'bank_transfer',
        accountName: 'Casey Customer',
        accountNumber: '12345678',
        bankName: 'First Fuzz Bank',
        routingNumber: '021000021',
      },
    }),
    'bank method',
  );
  const images = [
    await uploadCardImage(t.app, who),
    await uploadCardImage(t.app, who, 'card-back.png'),
  ];
  const chatFile = await json(
    await as(t.app, who, {
      method: 'POST',
      url: '/api/chat/upload-attachment',
      ...multipartOf('card-front.jpg'),
    }),
    'chat upload',
  );
  await json(
    await as(t.app, who, {
      method: 'POST',
      url: '/api/chat/messages',
      payload: { message: 'Hello', attachmentUrl: chatFile.url },
    }),
    'chat message',
  );
  const ticket = await json(
    await as(t.app, who, {
      method: 'POST',
      url: '/api/support-tickets',
      payload: { email: who.user.email, subject: 'Help', message: 'Where is my payout?' },
    }),
    'ticket',
  );
  pools[mine ? 'customerTransactions' : 'otherTransactions'].push(card.id);
  pools[mine ? 'customerMethods' : 'otherMethods'].push(card.paymentMethodId, method.id);
  pools[mine ? 'customerCardImages' : 'otherCardImages'].push(...images);
  if (!mine) pools.otherCardImages.push(...card.imageUrls);
  else pools.claimedCardImages.push(...card.imageUrls);
  pools[mine ? 'customerChatFiles' : 'otherChatFiles'].push(chatFile.url);
  pools.tickets.push(ticket.id);
  if (!mine) pools.otherTickets.push(ticket.id);
  pools.userIds.push(who.user.id);
  return { who, card };
}

const multipartOf = (name: string) =>
  multipart(fixture(name), name, name.endsWith('.png') ? 'image/png' : 'image/jpeg');

const account = (signedIn: SignedIn, password: string): Account => ({
  id: signedIn.user.id,
  email: signedIn.user.email,
  password,
  cookie: signedIn.cookie,
});

/** Two customers with data of every kind, and a staff member; ids go into the pools. */
export async function buildWorld(t: TestApp): Promise<World> {
  const pools = Object.fromEntries(POOL_NAMES.map((n) => [n, [] as string[]])) as Record<
    PoolName,
    string[]
  >;
  const mine = await customerWithData(t, pools, true);
  const other = await customerWithData(t, pools, false);
  const staff = await signInStaff(t, undefined, STAFF_PASSWORD);
  // A completed card, so receipts render; a staff reply with a file.
  await json(
    await as(t.app, staff, {
      method: 'PATCH',
      url: `/api/admin/transactions/${mine.card.id}`,
      payload: {
        status: 'completed',
        paymentStatus: 'sent',
        paymentAmount: '91.00',
        expectedUpdatedAt: mine.card.updatedAt,
      },
    }),
    'staff update',
  );
  const staffFile = await json(
    await as(t.app, staff, {
      method: 'POST',
      url: '/api/chat/upload-attachment',
      ...multipartOf('card-back.png'),
    }),
    'staff chat upload',
  );
  pools.staffChatFiles.push(staffFile.url);
  // An identity check waiting for staff (decision 072), its documents in the customer's pool.
  const documents: string[] = [];
  for (let i = 0; i < 3; i++) {
    const upload = await json(
      await as(t.app, mine.who, {
        method: 'POST',
        url: '/api/upload-verification-document',
        ...multipartOf('card-front.jpg'),
      }),
      'verification upload',
    );
    documents.push(upload.objectPath);
  }
  pools.verificationDocuments.push(...documents);
  const submission = await json(
    await as(t.app, mine.who, {
      method: 'POST',
      url: '/api/verification',
      payload: identityBody([documents[0]!], documents[1]!),
    }),
    'verification submission',
  );
  pools.verificationIds.push(submission.id);
  // The customer sells through the partner API too (issue 42): level 2 and a key of every scope.
  await t.database.db
    .update(users)
    .set({ verificationLevel: 2 })
    .where(eq(users.id, mine.who.user.id));
  const key = await json(
    await as(t.app, mine.who, {
      method: 'POST',
      url: '/api/api-keys',
      payload: {
        name: 'Fuzz',
        scopes: ['cards:read', 'cards:write', 'balance:read', 'webhooks:manage'],
      },
    }),
    'API key',
  );
  const world: World = {
    customer: account(mine.who, PASSWORD),
    other: account(other.who, PASSWORD),
    staff: account(staff, STAFF_PASSWORD),
    pools,
    apiKey: key.key,
  };
  pools.userIds.push(staff.user.id);
  for (const [url, pool] of [
    ['/api/admin/transactions?limit=1', 'transactionCursors'],
    ['/api/admin/users?limit=1', 'userCursors'],
    ['/api/admin/conversations?limit=1', 'conversationCursors'],
    ['/api/admin/support-tickets?limit=1', 'ticketCursors'],
  ] as const) {
    const page = await as(t.app, staff, { method: 'GET', url });
    const next = page.headers['x-next-cursor'];
    if (typeof next === 'string') addToPool(world, pool, next);
  }
  return world;
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface FuzzRequest {
  index: number;
  route: string;
  who: Who;
  strategy: string;
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** The identity may not use this route: anything below 400 is an access failure. */
  expectDenied: boolean;
  /** Sent on a session of its own (sign-in, sign-out). */
  ownSession: boolean;
  streaming: boolean;
  spec?: RouteSpec;
  param?: string;
  body?: JsonObject;
}

const INJECT_METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'HEAD',
  'TRACE',
  'PROPFIND',
  'SEARCH',
  'MKCOL',
  'LOCK',
  'COPY',
  'MOVE',
  'REPORT',
  'PURGE',
];

function badObjectKey(rng: Rng, world: World): string {
  const uuid = rng.uuid();
  const real = [
    ...world.pools.otherCardImages,
    ...world.pools.otherChatFiles,
    ...world.pools.customerCardImages,
  ].map((p) => p.replace(/^\/objects\//, ''));
  return rng.pick([
    `cards/${uuid}.jpg`,
    `chat/${uuid}.pdf`,
    `cards/${uuid}.svg`,
    `cards/${uuid}.JPG`,
    `CARDS/${uuid}.jpg`,
    `cards/${uuid}.jpg/`,
    `cards/${uuid}.jpg%00`,
    `cards/${uuid}.jpg%00.html`,
    `cards/${badId(rng, [])}`,
    '../../../../etc/passwd',
    '..%2f..%2f..%2fetc%2fpasswd',
    'cards/%2e%2e/%2e%2e/db',
    'cards/..%5c..%5cx.jpg',
    '%2e%2e/%2e%2e/package.json',
    'cards/',
    '',
    'cards',
    'db/PG_VERSION',
    `${'a/'.repeat(300)}x.jpg`,
    `cards/${'a'.repeat(3000)}.jpg`,
    'cards/%',
    'cards/%zz.jpg',
    ...(real.length > 0 ? [rng.pick(real), `${rng.pick(real)}?download=1`] : []),
  ]);
}

/** Paths of a route, broken in the ways URLs break. */
function urlVariant(rng: Rng, path: string): string {
  return rng.pick([
    `${path}/`,
    `/${path}`,
    path.toUpperCase(),
    path.replace('/api/', '/api//'),
    `${path};jsessionid=1`,
    `${path}%00`,
    `${path}%`,
    `${path}%zz`,
    `${path}%2F`,
    `${path}/..`,
    `${path}/.`,
    `${path}/%2e%2e`,
    `${path}/%2e%2e%2f%2e%2e`,
    `/api/../${path.replace(/^\//, '')}`,
    `${path}#fragment`,
    `${path}?%`,
    `${path}%E0%A4%A`,
    `${path}%c0%af`,
    `${path}${encodeLoose(rng.pick(UNICODE_ODDITIES))}`,
    path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
    `${path}/${'x'.repeat(rng.pick([100, 2000]))}`,
    `${path}\\..\\x`,
  ]);
}

/** Unknown paths and methods: what a scanner sends. */
function strayRequest(rng: Rng): { method: string; url: string; label: string } {
  const url = rng.pick([
    '/',
    '/api',
    '/api/',
    '/api/nope',
    '/api/admin',
    '/api/admin/',
    '/api/admin/nope',
    '/admin',
    '/admin/login',
    '/objects',
    '/objects/',
    '/%',
    '/%zz',
    '/%00',
    '/api/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
    '/.env',
    '/.git/config',
    '/../../etc/passwd',
    '/api/admin/transactions/x/y/z',
    '/index.html',
    '/favicon.ico',
    '/assets/index.js',
    '/server-status',
    '/wp-login.php',
    `/api/${'a/'.repeat(rng.pick([10, 500]))}`,
    `/${'x'.repeat(rng.pick([300, 5000]))}`,
    `/api/transactions/${'/'.repeat(50)}`,
    '/api/transactions//receipt',
    '/api/payment-methods/',
    '/api/admin/transactions/',
    '/api/admin/support-tickets/',
    '/api/transactions/%20/receipt',
  ]);
  return { method: rng.pick(INJECT_METHODS), url, label: 'stray' };
}

const fill = (path: string, param: string) => path.replace(/:[a-zA-Z]+|\*/, param);

/** One request for `spec` as `who`: valid, or broken in one way the route can be broken. */
export function generateRequest(spec: RouteSpec, ctx: GenContext): Omit<FuzzRequest, 'index'> {
  const { rng, world, who, options } = ctx;
  const hasParam = /:[a-zA-Z]+|\*/.test(spec.path);
  const strategies: [number, string][] = [[8, 'valid']];
  if (spec.body === 'json') {
    strategies.push(
      [34, 'body-mutation'],
      [10, 'body-broken'],
      [6, 'content-type'],
      [3, 'no-body'],
    );
  }
  if (spec.body === 'multipart') {
    strategies.push([45, 'multipart'], [8, 'valid-upload'], [4, 'content-type'], [3, 'no-body']);
  }
  if (hasParam) strategies.push([22, 'bad-param']);
  if (spec.method === 'GET') strategies.push([spec.query ? 25 : 8, 'bad-query']);
  if (!spec.body) strategies.push([3, 'unexpected-body']);
  strategies.push([6, 'headers'], [3, 'method'], [4, 'url']);
  const strategy = rng.weighted(strategies);

  let method: string = spec.method;
  let param = hasParam
    ? spec.param
      ? spec.param(ctx)
      : spec.path.endsWith('*')
        ? badObjectKey(rng, world)
        : rng.uuid()
    : '';
  const query: [string, string][] = [];
  for (const [key, value] of Object.entries(spec.query ?? {})) {
    if (rng.chance(0.5)) query.push([key, encodeLoose(value(ctx))]);
  }
  let queryTail = '';
  const headers: Record<string, string> = {};
  let body: JsonObject | undefined;
  let payload: string | Buffer | undefined;
  let contentType: string | undefined;
  let label = '';
  let path: string | undefined;

  const ids = [
    world.customer.id,
    world.other.id,
    world.staff.id,
    ...world.pools.otherTransactions.slice(0, 3),
    ...world.pools.otherMethods.slice(0, 3),
  ];
  if (spec.body === 'json') {
    body = spec.validBody ? spec.validBody(ctx) : new JsonObject();
    payload = toJsonText(body);
    contentType = 'application/json';
  } else if (spec.body === 'multipart') {
    const upload = multipartCase(rng, options, true);
    payload = upload.payload;
    contentType = upload.contentType;
    label = upload.label;
  }

  switch (strategy) {
    case 'valid':
      label ||= 'valid';
      break;
    case 'body-mutation': {
      const mutated = mutateBody(rng, options, body ?? new JsonObject(), ids);
      body = mutated.body;
      payload = toJsonText(body);
      label = mutated.label;
      break;
    }
    case 'body-broken': {
      const broken = brokenJson(rng, options);
      body = undefined;
      payload = broken.text;
      label = broken.label;
      break;
    }
    case 'content-type':
      if (spec.body === 'multipart') {
        payload = rng.pick(['{"file":"x"}', 'file=x', '']);
        contentType = rng.pick(ODD_JSON_CONTENT_TYPES);
      } else {
        contentType = rng.pick(ODD_JSON_CONTENT_TYPES);
        if (contentType.includes('urlencoded')) payload = 'email=a%40b.co&password=x';
      }
      label = `content-type ${JSON.stringify(contentType)}`;
      break;
    case 'no-body':
      payload = rng.pick([undefined, '']);
      if (rng.chance(0.5)) contentType = undefined;
      body = undefined;
      label = `no body, content-type ${contentType ?? 'none'}`;
      break;
    case 'multipart': {
      const upload = multipartCase(rng, options, false);
      payload = upload.payload;
      contentType = upload.contentType;
      label = upload.label;
      break;
    }
    case 'valid-upload':
      label ||= 'valid upload';
      break;
    case 'bad-param':
      param = spec.path.endsWith('*')
        ? badObjectKey(rng, world)
        : badId(rng, [
            ...world.pools.otherTransactions,
            ...world.pools.otherMethods,
            ...world.pools.tickets,
            ...world.pools.userIds,
            ...world.pools.customerTransactions,
          ]);
      label = `param ${JSON.stringify(param.slice(0, 40))}`;
      break;
    case 'bad-query': {
      const keys = [...Object.keys(spec.query ?? {}), ...GENERIC_QUERY_KEYS];
      if (rng.chance(0.7)) {
        const key = rng.pick(keys);
        const value =
          key === 'cursor'
            ? badCursor(rng, [
                ...world.pools.transactionCursors,
                ...world.pools.userCursors,
                ...world.pools.conversationCursors,
                ...world.pools.ticketCursors,
              ])
            : key === 'limit' || key === 'page' || key === 'offset'
              ? rng.pick(NUMERIC_STRINGS)
              : rng.chance(0.2)
                ? rng.pick(EMAIL_STRINGS)
                : evilString(rng, options);
        const at = query.findIndex(([k]) => k === key);
        const entry: [string, string] = [key, queryValue(rng, value)];
        if (at >= 0 && rng.chance(0.7)) query[at] = entry;
        else query.push(entry);
        label = `query ${key}=${JSON.stringify(value.slice(0, 40))}`;
      } else {
        queryTail = badQueryTail(rng);
        label = `query ${JSON.stringify(queryTail.slice(0, 40))}`;
      }
      break;
    }
    case 'unexpected-body':
      payload = rng.chance(0.5)
        ? toJsonText(JsonObject.from({ isAdmin: true, userId: world.other.id }))
        : brokenJson(rng, options).text;
      contentType = rng.pick(['application/json', 'text/plain', 'application/octet-stream']);
      label = `${spec.method} with a body`;
      break;
    case 'headers': {
      // A sign-in or sign-out runs on a session of its own: never tamper with the main one.
      const own = who === 'anonymous' || spec.ownSession ? undefined : world[who].cookie;
      const [extra, what] = oddHeaders(rng, own);
      Object.assign(headers, extra);
      label = what;
      break;
    }
    case 'method':
      method = rng.pick(INJECT_METHODS.filter((m) => m !== spec.method));
      label = `method ${method}`;
      break;
    case 'url':
      path = urlVariant(rng, fill(spec.path, param));
      label = `url ${JSON.stringify(path.slice(0, 60))}`;
      break;
  }

  if (contentType !== undefined) headers['content-type'] = contentType;
  // A partner route is the customer's through their API key (issue 42), the cookie aside.
  if (spec.bearer && who === 'customer' && world.apiKey && !('authorization' in headers)) {
    headers.authorization = `Bearer ${world.apiKey}`;
  }
  const search = query.map(([k, v]) => `${k}=${v}`).join('&');
  const url = `${path ?? fill(spec.path, param)}${queryTail || (search ? `?${search}` : '')}`;
  const sameRoute = !['method', 'url'].includes(strategy);
  return {
    route: routeKey(spec),
    who,
    strategy,
    label,
    method,
    url,
    headers,
    payload,
    expectDenied: sameRoute && !spec.generic && !allows(spec.access, who),
    ownSession: !!spec.ownSession,
    streaming: !!spec.streaming,
    spec: sameRoute ? spec : undefined,
    param: hasParam ? param : undefined,
    body,
  };
}

// ---------------------------------------------------------------------------------------------
// Logs

export interface LogCapture {
  /** Lines written since the last call. */
  take(): string[];
  all: string[];
}

/**
 * The app's log lines, kept in memory instead of stdout: pino's stream is swapped on the root
 * logger, which every request's child logger reads through its prototype. Null when the app
 * logs nothing (LOG_LEVEL=silent).
 */
export function captureLogs(log: object): LogCapture | null {
  let symbol: symbol | undefined;
  for (let o: object | null = log; o && !symbol; o = Object.getPrototypeOf(o)) {
    symbol = Object.getOwnPropertySymbols(o).find((s) => s.description === 'pino.stream');
  }
  if (!symbol) return null;
  let fresh: string[] = [];
  const capture: LogCapture = {
    all: [],
    take() {
      const out = fresh;
      fresh = [];
      return out;
    },
  };
  (log as Record<symbol, unknown>)[symbol] = {
    write(line: string) {
      fresh.push(line.trimEnd());
      capture.all.push(line.trimEnd());
      return true;
    },
  };
  return capture;
}

const levelOf = (line: string) => {
  try {
    return Number(JSON.parse(line).level) || 0;
  } catch {
    return 0;
  }
};

// ---------------------------------------------------------------------------------------------
// Running

export interface Failure {
  request: FuzzRequest;
  status: number | string;
  body: string;
  problems: string[];
  logs: string[];
}

export interface RunStats {
  total: number;
  byStatus: Map<string, number>;
  byRoute: Map<string, Map<string, number>>;
  byWho: Map<string, number>;
  byStrategy: Map<string, number>;
  /** Routes and identities that reached past the auth guards at least once. */
  reached: Set<string>;
  /** Error-level log lines written for answers that were not 5xx. */
  quietErrors: { request: FuzzRequest; status: number | string; lines: string[] }[];
  sessionsRenewed: number;
  durationMs: number;
  /** The slowest requests, slowest first. */
  slowest: { ms: number; request: FuzzRequest; status: string }[];
  /** Things worth a look that do not fail the run, with how often they happened. */
  notes: Map<string, number>;
}

export interface RunOptions extends GenOptions {
  seed: number;
  requests: number;
  /** Milliseconds an answer may take before the request counts as hung. */
  timeoutMs: number;
  concurrency: number;
  /** Share of requests that go to unknown paths. */
  strayShare: number;
  /**
   * First send the deterministic corpus (generators.ts): every value of fieldCorpusValues in
   * every field of every JSON body, every queryCorpusValues value in every list parameter, and
   * every multipartCorpus case to every upload route.
   */
  corpus: boolean;
  onProgress?: (done: number, stats: RunStats) => void;
  /** Called for a request that took over 2 s. */
  onSlow?: (ms: number, request: FuzzRequest, status: string) => void;
  /** Called for each failing request, as it fails. */
  onFailure?: (failure: Failure) => void;
  /** Called before each request is sent (tracing a run that stalls). */
  onSend?: (request: FuzzRequest) => void;
}

export interface RunResult {
  seed: number;
  stats: RunStats;
  failures: Failure[];
  uncatalogued: string[];
  /** Catalogue routes the app does not register (renamed or removed). */
  stale: string[];
  logs: LogCapture | null;
}

const bump = (map: Map<string, number>, key: string, by = 1) =>
  map.set(key, (map.get(key) ?? 0) + by);

interface Outcome {
  status: number | 'stream' | 'timeout' | 'inject-error';
  answer?: Answer;
  error?: string;
}

async function readStream(stream: NodeJS.ReadableStream, limitMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  return await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(Buffer.concat(chunks).toString()), limitMs);
    stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    stream.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString());
    });
    stream.on('error', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString());
    });
  });
}

async function send(t: TestApp, request: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  // Aborting destroys the request (which also clears the listeners plugins put on it); inject's
  // promise may still never settle when the server is stuck, hence the race with a timer.
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), timeoutMs);
  });
  const options: InjectOptions = {
    method: request.method as InjectOptions['method'],
    url: request.url,
    headers: request.headers,
    payload: request.payload,
    signal: controller.signal,
    ...(request.streaming ? { payloadAsStream: true } : {}),
  };
  const injected = t.app.inject(options);
  injected.catch(() => {});
  try {
    const response = await Promise.race([injected, expired]);
    if (response === 'expired') {
      controller.abort();
      return { status: 'timeout', error: `no answer in ${timeoutMs} ms` };
    }
    let body: string;
    if (request.streaming) {
      const type = String(response.headers['content-type'] ?? '');
      if (type.startsWith('text/event-stream')) {
        controller.abort();
        return { status: 'stream' };
      }
      body = await readStream(response.stream(), timeoutMs);
    } else {
      body = response.body;
    }
    // Node dumps the unread rest of an answered request's body (req._dump), so the request
    // ends; inject does not, which leaves the listeners plugins put on it (the body deadline's
    // timer) waiting forever: drain it the same way.
    (response.raw.res as unknown as { req?: { resume?: () => void } }).req?.resume?.();
    return {
      status: response.statusCode,
      answer: { status: response.statusCode, headers: response.headers, body },
    };
  } catch (error) {
    const e = error as Error;
    return { status: 'inject-error', error: `${e.name}: ${e.message}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A new session for `who`, for requests that sign in or out. Customers sign in; staff get theirs
 * made in the database (a real staff sign-in needs a fresh authenticator code, one per 30 s).
 */
async function freshCookie(t: TestApp, world: World, who: Who): Promise<string | undefined> {
  if (who === 'anonymous') return undefined;
  const account = world[who];
  if (who === 'staff') return sessionFor(t, { kind: 'admin', id: account.id });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/signin',
    payload: { email: account.email, password: account.password },
  });
  return sessionCookie(response);
}

/** Signs an identity in again when its session was ended (by a fuzzed request or expiry). */
async function keepSignedIn(t: TestApp, world: World): Promise<number> {
  let renewed = 0;
  for (const who of ['customer', 'staff'] as const) {
    const check = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: world[who].cookie },
    });
    if (check.statusCode === 200) continue;
    const cookie = await freshCookie(t, world, who);
    if (!cookie) throw new Error(`cannot sign ${who} in again`);
    world[who].cookie = cookie;
    renewed++;
  }
  return renewed;
}

function secretsIn(world: World, line: string): string[] {
  const found: string[] = [];
  if (/\$2[aby]\$\d\d\$/.test(line)) found.push('a bcrypt hash');
  for (const who of ['customer', 'other', 'staff'] as const) {
    if (line.includes(world[who].password)) found.push(`${who}'s password`);
    const token = decodeURIComponent(world[who].cookie.split('=')[1] ?? '').split('.')[0];
    if (token && token.length > 10 && line.includes(token)) found.push(`${who}'s session token`);
  }
  if (/12345678901234567|\b12345678\b|021000021/.test(line))
    found.push('an account or routing number');
  return found;
}

/**
 * Sends the corpus (when asked), then `options.requests` generated requests, round-robin over
 * every route and identity, checking each answer as it comes.
 */
export async function runFuzz(t: TestApp, world: World, options: RunOptions): Promise<RunResult> {
  const rng = new Rng(options.seed);
  const logs = captureLogs(t.app.log);
  const { routes, uncatalogued } = routesToFuzz(t.app);
  const registered = new Set(routes.map(routeKey));
  const stale = CATALOGUE.map(routeKey).filter((k) => !registered.has(k));
  // Routes with a body have the most to break: they get twice the share.
  const combos = routes.flatMap((spec) =>
    IDENTITIES.flatMap((who) => Array(spec.body ? 2 : 1).fill({ spec, who })),
  ) as { spec: RouteSpec; who: Who }[];

  const stats: RunStats = {
    total: 0,
    byStatus: new Map(),
    byRoute: new Map(),
    byWho: new Map(),
    byStrategy: new Map(),
    reached: new Set(),
    quietErrors: [],
    sessionsRenewed: 0,
    durationMs: 0,
    slowest: [],
    notes: new Map(),
  };
  const failures: Failure[] = [];
  const hangs = new Map<string, number>();
  const started = performance.now();

  let order: typeof combos = [];
  const nextRequest = async (index: number): Promise<FuzzRequest> => {
    if (rng.chance(options.strayShare)) {
      const stray = strayRequest(rng);
      return {
        index,
        route: '(unknown path)',
        who: rng.pick(IDENTITIES),
        strategy: 'stray',
        headers: {},
        expectDenied: false,
        ownSession: false,
        streaming: false,
        ...stray,
      };
    }
    if (order.length === 0) order = rng.sample(combos, combos.length);
    const { spec, who } = order.pop()!;
    if (spec.prepare && who === 'customer') {
      // A fuzzed request may have ended the customer's sessions (staff can end them all).
      stats.sessionsRenewed += await keepSignedIn(t, world);
      await spec.prepare(t.app, world);
    }
    return { index, ...generateRequest(spec, { rng, world, who, options }) };
  };

  const runOne = async (request: FuzzRequest) => {
    const cookie = request.ownSession
      ? await freshCookie(t, world, request.who)
      : request.who === 'anonymous'
        ? undefined
        : world[request.who].cookie;
    if (cookie && !('cookie' in request.headers)) request.headers.cookie = cookie;
    logs?.take();
    options.onSend?.(request);
    const began = performance.now();
    // A route that hangs keeps hanging: after two, its requests get a short wait, so a hang
    // costs the run seconds, not minutes (each is still a failure).
    const hung = hangs.get(request.route) ?? 0;
    const wait = request.streaming ? 2_000 : hung >= 2 ? 300 : options.timeoutMs;
    const outcome = await send(t, request, wait);
    if (outcome.status === 'timeout') hangs.set(request.route, hung + 1);
    const ms = performance.now() - began;
    const lines = logs?.take() ?? [];
    const status = String(outcome.status);
    if (stats.slowest.length < 10 || ms > stats.slowest.at(-1)!.ms) {
      stats.slowest.push({ ms, request, status });
      stats.slowest.sort((a, b) => b.ms - a.ms);
      stats.slowest.length = Math.min(stats.slowest.length, 10);
    }
    if (ms > 2_000) options.onSlow?.(ms, request, status);
    stats.total++;
    bump(stats.byStatus, status);
    bump(stats.byWho, request.who);
    bump(stats.byStrategy, request.strategy);
    const perRoute = stats.byRoute.get(request.route) ?? new Map<string, number>();
    bump(perRoute, status);
    stats.byRoute.set(request.route, perRoute);

    const problems: string[] = [];
    if (outcome.status === 'timeout') problems.push(outcome.error!);
    if (outcome.status === 'inject-error') problems.push(`the request broke: ${outcome.error}`);
    if (outcome.answer) {
      const page =
        request.spec?.page === true && (request.headers.accept ?? '').includes('text/html');
      problems.push(
        ...contractViolations(outcome.answer, { head: request.method === 'HEAD', page }),
      );
    }
    const code = typeof outcome.status === 'number' ? outcome.status : 200;
    if (request.expectDenied && code < 400) {
      problems.push(`${request.who} got ${outcome.status} on a route it may not use`);
    }
    const answered = typeof outcome.status === 'number' || outcome.status === 'stream';
    if (request.spec && answered && code !== 401 && code !== 403) {
      stats.reached.add(`${request.route} as ${request.who}`);
    }
    if (request.spec && code >= 200 && code < 300) {
      let parsed: unknown;
      try {
        parsed = outcome.answer ? JSON.parse(outcome.answer.body) : undefined;
      } catch {}
      const success = {
        status: code,
        json: parsed,
        headers: (outcome.answer?.headers ?? {}) as Record<string, unknown>,
        param: request.param,
        body: request.body,
        who: request.who,
      };
      const wrong = request.spec.check?.(success, world);
      if (wrong) problems.push(wrong);
      request.spec.learn?.(success, world);
    }
    for (const line of lines) {
      const secrets = secretsIn(world, line);
      if (secrets.length > 0) problems.push(`the log shows ${secrets.join(', ')}`);
    }
    // PRODUCT.md: upload endpoints carry the message in `error` too. Counted, not failed: the
    // guards' 401/403 and the framework's 415 are not written by the upload code.
    if (request.spec?.body === 'multipart' && code >= 400 && outcome.answer) {
      if (!/"error":/.test(outcome.answer.body))
        bump(stats.notes, `upload answer ${code} without "error"`);
    }
    const errorLines = lines.filter((l) => levelOf(l) >= 50);
    if (errorLines.length > 0 && code < 500) {
      stats.quietErrors.push({ request, status: outcome.status, lines: errorLines });
    }
    if (problems.length > 0) {
      const failure = {
        request,
        status: outcome.status,
        body: outcome.answer?.body.slice(0, 2000) ?? outcome.error ?? '',
        problems: [...new Set(problems)],
        logs: lines,
      };
      failures.push(failure);
      options.onFailure?.(failure);
    }
  };

  let index = 0;
  if (options.corpus) {
    for (const spec of routes.filter((r) => r.body === 'multipart')) {
      for (const who of IDENTITIES.filter((w) => w !== 'anonymous' && allows(spec.access, w))) {
        for (const c of multipartCorpus()) {
          await runOne({
            index: index++,
            route: routeKey(spec),
            who,
            strategy: 'corpus',
            label: c.label,
            method: spec.method,
            url: spec.path,
            headers: c.contentType === undefined ? {} : { 'content-type': c.contentType },
            payload: c.payload,
            expectDenied: false,
            ownSession: false,
            streaming: false,
            spec,
          });
        }
      }
    }
  }
  if (options.corpus) {
    // Every field of every JSON body, each with every corpus value, as one who may send it.
    const values = fieldCorpusValues();
    for (const spec of routes.filter((r) => r.body === 'json' && r.validBody && !r.generic)) {
      const who = (['customer', 'staff', 'anonymous'] as const).find((w) =>
        allows(spec.access, w),
      )!;
      const sample = new Rng(index);
      const fields = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const body = spec.validBody!({ rng: sample, world, who, options });
        for (const [key] of body.entries) fields.add(key);
      }
      for (const field of fields) {
        for (const { label, value } of values) {
          const body = spec.validBody!({ rng: sample, world, who, options }).set(field, value);
          const param = spec.param?.({ rng: sample, world, who, options });
          await runOne({
            index: index++,
            route: routeKey(spec),
            who,
            strategy: 'corpus',
            label: `${field}: ${label}`,
            method: spec.method,
            url: param ? fill(spec.path, param) : spec.path,
            headers: { 'content-type': 'application/json' },
            payload: toJsonText(body),
            expectDenied: false,
            ownSession: !!spec.ownSession,
            streaming: false,
            spec,
            param,
            body,
          });
        }
      }
    }
  }
  if (options.corpus) {
    // Every known query parameter of every list, each with every corpus value.
    for (const spec of routes.filter((r) => r.query && !r.generic)) {
      const who = (['customer', 'staff', 'anonymous'] as const).find((w) =>
        allows(spec.access, w),
      )!;
      for (const key of Object.keys(spec.query!)) {
        for (const value of queryCorpusValues(key)) {
          await runOne({
            index: index++,
            route: routeKey(spec),
            who,
            strategy: 'corpus',
            label: `${key}=${JSON.stringify(value.slice(0, 60))}`,
            method: spec.method,
            url: `${spec.path}?${key}=${encodeLoose(value)}`,
            headers: {},
            expectDenied: false,
            ownSession: false,
            streaming: false,
            spec,
          });
        }
      }
    }
  }
  const corpusSize = index;
  const worker = async () => {
    while (index < corpusSize + options.requests) {
      const request = await nextRequest(index++);
      await runOne(request);
      if (index % 250 === 0) {
        stats.sessionsRenewed += await keepSignedIn(t, world);
        options.onProgress?.(index, stats);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  stats.durationMs = performance.now() - started;
  return { seed: options.seed, stats, failures, uncatalogued, stale, logs };
}

// ---------------------------------------------------------------------------------------------
// Raw sockets: what app.inject cannot send

export interface RawCase {
  label: string;
  bytes: Buffer;
  head?: boolean;
}

/** Requests that only a socket can send: unknown methods, broken request lines and framing. */
export function rawCases(world: World): RawCase[] {
  const cookie = world.customer.cookie;
  const r = (label: string, text: string | Buffer, head = false): RawCase => ({
    label,
    bytes: typeof text === 'string' ? Buffer.from(text, 'latin1') : text,
    head,
  });
  const end = 'Connection: close\r\n\r\n';
  const json = '{"email":"a@b.co","password":"x"}';
  return [
    r('unknown method', `FOO /api/stats HTTP/1.1\r\nHost: x\r\n${end}`),
    r(
      'unknown method with a body',
      `BREW /api/signin HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n${end}{}`,
    ),
    r('lower-case method', `get /api/stats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('long method', `${'A'.repeat(5000)} /api/stats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('QUERY method', `QUERY /api/stats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('HTTP/1.0', `GET /api/stats HTTP/1.0\r\n\r\n`),
    r('HTTP/2.0 on a 1.1 socket', `GET /api/stats HTTP/2.0\r\nHost: x\r\n${end}`),
    r('HTTP/9.9', `GET /api/stats HTTP/9.9\r\nHost: x\r\n${end}`),
    r('no version', `GET /api/stats\r\nHost: x\r\n${end}`),
    r('extra token in the request line', `GET /api/stats HTTP/1.1 x\r\nHost: x\r\n${end}`),
    r('relative path', `GET api/stats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('absolute form', `GET http://evil.example/api/stats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('asterisk form', `OPTIONS * HTTP/1.1\r\nHost: x\r\n${end}`),
    r('authority form', `CONNECT localhost:5000 HTTP/1.1\r\nHost: x\r\n${end}`),
    r('NUL in the path', `GET /api/st\u0000ats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('space in the path', `GET /api/st ats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('tab in the path', `GET /api/st\tats HTTP/1.1\r\nHost: x\r\n${end}`),
    r(
      'raw UTF-8 in the path',
      Buffer.concat([
        Buffer.from('GET /api/'),
        Buffer.from('é😀'),
        Buffer.from(` HTTP/1.1\r\nHost: x\r\n${end}`),
      ]),
    ),
    r(
      'invalid UTF-8 in the path',
      Buffer.concat([
        Buffer.from('GET /api/transactions/'),
        Buffer.from([0xff, 0xfe, 0xc0]),
        Buffer.from(`/receipt HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n${end}`),
      ]),
    ),
    r('bad percent-encoding', `GET /api/%zz HTTP/1.1\r\nHost: x\r\n${end}`),
    r(
      'bad percent-encoding in an id',
      `GET /api/admin/transactions/%E0%A4%A HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n${end}`,
    ),
    r(
      'overlong UTF-8 dot-dot',
      `GET /objects/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n${end}`,
    ),
    r('DEL in the path', `GET /api/\u007fstats HTTP/1.1\r\nHost: x\r\n${end}`),
    r('long URL', `GET /api/stats?x=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n${end}`),
    r(
      'long header',
      `GET /api/stats HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n${end}`,
    ),
    r(
      'many headers',
      `GET /api/stats HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join('')}${end}`,
    ),
    r('no Host', `GET /api/stats HTTP/1.1\r\n${end}`),
    r('two Hosts', `GET /api/stats HTTP/1.1\r\nHost: a\r\nHost: b\r\n${end}`),
    r('header without a colon', `GET /api/stats HTTP/1.1\r\nHost: x\r\nBroken header\r\n${end}`),
    r('space before the colon', `GET /api/stats HTTP/1.1\r\nHost : x\r\n${end}`),
    r('folded header', `GET /api/stats HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n${end}`),
    r('NUL in a header', `GET /api/stats HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n${end}`),
    r('CR in a header', `GET /api/stats HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n${end}`),
    r('bare LF line ends', `GET /api/stats HTTP/1.1\nHost: x\nConnection: close\n\n`),
    r(
      'UTF-8 in a cookie',
      Buffer.concat([
        Buffer.from('GET /api/auth/user HTTP/1.1\r\nHost: x\r\nCookie: cb.sid='),
        Buffer.from('é😀\u00ff'),
        Buffer.from(`\r\n${end}`),
      ]),
    ),
    r(
      'two Content-Lengths',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n${end}{}`,
    ),
    r(
      'negative Content-Length',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n${end}{}`,
    ),
    r(
      'Content-Length not a number',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n${end}{}`,
    ),
    r(
      'huge Content-Length',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999\r\n${end}{}`,
    ),
    r(
      'Content-Length shorter than the body',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n${end}${json}`,
    ),
    r(
      'Content-Length and chunked',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n${end}0\r\n\r\n`,
    ),
    r(
      'chunked',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${end}${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
    ),
    r(
      'bad chunk size',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${end}zz\r\n{}\r\n0\r\n\r\n`,
    ),
    r(
      'overflowing chunk size',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${end}ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n`,
    ),
    r(
      'chunk extension',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${end}2;x=y\r\n{}\r\n0\r\n\r\n`,
    ),
    r(
      'unknown transfer coding',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n${end}2\r\n{}\r\n0\r\n\r\n`,
    ),
    r(
      'Transfer-Encoding: identity',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: identity\r\n${end}{}`,
    ),
    r(
      'chunked trailer',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${end}2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n`,
    ),
    r(
      'gzip body that is not gzip',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${json.length}\r\n${end}${json}`,
    ),
    r(
      'Expect: 100-continue',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${json.length}\r\n${end}${json}`,
    ),
    r(
      'unknown Expect',
      `POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 999-x\r\nContent-Length: 2\r\n${end}{}`,
    ),
    r(
      'truncated multipart over the socket',
      `POST /api/upload-card-image HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000\r\n${end}--b\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\u00ff\u00d8\u00ff`,
    ),
    r(
      'multipart with a chunked body',
      `POST /api/upload-card-image HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n${end}5\r\n--b\r\n\r\n0\r\n\r\n`,
    ),
    r(
      'pipelined requests',
      `GET /api/stats HTTP/1.1\r\nHost: x\r\n\r\nGET /api/%zz HTTP/1.1\r\nHost: x\r\n${end}`,
    ),
    r(
      'HEAD with a body',
      `HEAD /api/stats HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n${end}{}`,
      true,
    ),
    r('garbage', 'HELLO\r\n\r\n'),
    r(
      'binary garbage',
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]),
    ),
    r('only CRLFs', '\r\n\r\n\r\n\r\n'),
    r('request line only', 'GET / HTTP/1.1\r\n'),
  ];
}

export interface RawAnswer {
  status: number | null;
  headers: Record<string, string>;
  body: string;
}

function parseRaw(raw: Buffer): RawAnswer {
  let text = raw.toString('latin1');
  // Interim answers (100 Continue) come first; the real one follows.
  while (/^HTTP\/1\.[01] 1\d\d /.test(text) && text.includes('\r\n\r\n')) {
    text = text.slice(text.indexOf('\r\n\r\n') + 4);
  }
  const split = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/') || split < 0) return { status: null, headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['content-length'] !== undefined) {
    body = body.slice(0, Number(headers['content-length']));
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    let out = '';
    let rest = body;
    for (;;) {
      const eol = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.slice(0, eol), 16);
      if (eol < 0 || !size) break;
      out += rest.slice(eol + 2, eol + 2 + size);
      rest = rest.slice(eol + 2 + size + 2);
    }
    body = out;
  }
  return {
    status: Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine!)?.[1]) || null,
    headers,
    body: Buffer.from(body, 'latin1').toString('utf8'),
  };
}

export function sendRaw(port: number, bytes: Buffer, timeoutMs = 3_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(Buffer.concat(chunks)));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', done);
    socket.on('error', done);
  });
}

/** The raw cases against a listening app: no 5xx, and every error in PRODUCT.md's shape. */
export async function runRaw(
  port: number,
  world: World,
): Promise<{ results: { label: string; status: number | null }[]; failures: Failure[] }> {
  const results: { label: string; status: number | null }[] = [];
  const failures: Failure[] = [];
  for (const c of rawCases(world)) {
    const answer = await sendRaw(port, c.bytes);
    results.push({ label: c.label, status: answer.status });
    if (answer.status === null) continue;
    const problems = contractViolations(
      { status: answer.status, headers: answer.headers, body: answer.body },
      { head: c.head },
    );
    if (problems.length > 0) {
      failures.push({
        request: {
          index: -1,
          route: '(raw socket)',
          who: 'anonymous',
          strategy: 'raw',
          label: c.label,
          method: c.bytes.toString('latin1').split(' ')[0]!.slice(0, 20),
          url: '',
          headers: {},
          payload: c.bytes,
          expectDenied: false,
          ownSession: false,
          streaming: false,
        },
        status: answer.status,
        body: answer.body.slice(0, 2000),
        problems,
        logs: [],
      });
    }
  }
  return { results, failures };
}

// ---------------------------------------------------------------------------------------------
// Reports

const preview = (payload: string | Buffer | undefined, max = 600) => {
  if (payload === undefined) return '(none)';
  const text = typeof payload === 'string' ? payload : payload.toString('latin1');
  const shown = JSON.stringify(text.slice(0, max));
  return text.length > max ? `${shown}… (${text.length} bytes in all)` : shown;
};

export function describeFailure(failure: Failure, seed: number): string {
  const r = failure.request;
  const headers = Object.fromEntries(
    Object.entries(r.headers).map(([k, v]) => [k, v.length > 200 ? `${v.slice(0, 200)}…` : v]),
  );
  const lines = [
    `#${r.index} (seed ${seed}) as ${r.who} on ${r.route} [${r.strategy}: ${r.label}]`,
    `  ${r.method} ${r.url.length > 300 ? `${r.url.slice(0, 300)}… (${r.url.length} chars)` : r.url}`,
    `  headers: ${JSON.stringify(headers)}`,
    `  body: ${preview(r.payload)}`,
    `  answer: ${failure.status} ${failure.body.slice(0, 400)}`,
    `  problems: ${failure.problems.join('; ')}`,
  ];
  for (const line of failure.logs.slice(0, 5)) lines.push(`  log: ${line.slice(0, 4000)}`);
  return lines.join('\n');
}

/** Failures grouped by route, answer and problem, with the first example of each. */
export function groupFailures(failures: Failure[]) {
  const groups = new Map<string, { count: number; first: Failure }>();
  for (const f of failures) {
    const key = `${f.request.route} → ${f.status}: ${f.problems.join('; ')}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { count: 1, first: f });
  }
  return [...groups.entries()].map(([key, g]) => ({ key, ...g }));
}

export function failureReport(failures: Failure[], seed: number, max = 15): string {
  const groups = groupFailures(failures);
  const parts = [
    `${failures.length} failing request(s) in ${groups.length} group(s); replay with FUZZ_SEED=${seed}`,
  ];
  for (const g of groups.slice(0, max)) {
    parts.push(`\n== ${g.count} × ${g.key}\n${describeFailure(g.first, seed)}`);
  }
  if (groups.length > max) parts.push(`\n… and ${groups.length - max} more group(s)`);
  return parts.join('\n');
}

/** Failing requests in full (payload as base64), for replay with app.inject. */
export function failuresAsJson(failures: Failure[], seed: number) {
  return JSON.stringify(
    {
      seed,
      failures: failures.map((f) => ({
        index: f.request.index,
        route: f.request.route,
        who: f.request.who,
        label: f.request.label,
        method: f.request.method,
        url: f.request.url,
        headers: f.request.headers,
        payloadBase64:
          f.request.payload === undefined
            ? null
            : (typeof f.request.payload === 'string'
                ? Buffer.from(f.request.payload)
                : f.request.payload
              ).toString('base64'),
        status: f.status,
        body: f.body,
        problems: f.problems,
        logs: f.logs,
      })),
    },
    null,
    2,
  );
}

export function statusTable(stats: RunStats): string {
  const statuses = [...stats.byStatus.entries()].sort(([a], [b]) => a.localeCompare(b));
  const lines = [`${stats.total} requests in ${(stats.durationMs / 1000).toFixed(1)} s`];
  lines.push(`by status: ${statuses.map(([s, n]) => `${s}: ${n}`).join(', ')}`);
  lines.push(`by identity: ${[...stats.byWho.entries()].map(([w, n]) => `${w}: ${n}`).join(', ')}`);
  lines.push(
    `by strategy: ${[...stats.byStrategy.entries()]
      .sort(([, a], [, b]) => b - a)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  return lines.join('\n');
}

export function routeTable(stats: RunStats): string {
  const rows = [...stats.byRoute.entries()].sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...rows.map(([r]) => r.length));
  return rows
    .map(([route, statuses]) => {
      const total = [...statuses.values()].reduce((a, b) => a + b, 0);
      const detail = [...statuses.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, n]) => `${s}:${n}`)
        .join(' ');
      return `${route.padEnd(width)}  ${String(total).padStart(6)}  ${detail}`;
    })
    .join('\n');
}

/** One line for a request: who, method, URL and what was broken. */
export function requestLine(request: FuzzRequest): string {
  const url = request.url.length > 120 ? `${request.url.slice(0, 120)}…` : request.url;
  return `#${request.index} ${request.who} ${request.method} ${url} [${request.strategy}: ${request.label}]`;
}
