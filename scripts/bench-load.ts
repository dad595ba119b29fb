/**
 * npm run bench:load: signed-in customers polling, measured from outside over HTTP.
 *
 *   npm run bench:load                 the spec's mix at 50 connections: Cardbridge on PGlite, on
 *                                      PostgreSQL when DATABASE_URL is set, a raw node:http server
 *                                      and, when ../shared/bench/peer-seed-stack is present (and
 *                                      PostgreSQL answers), the reference, all in one run
 *   npm run bench:load -- --soak       1,000 customers (--customers N) at the spec's poll
 *                                      intervals for 5 minutes (SOAK_SECONDS), on PGlite or, with
 *                                      DATABASE_URL, PostgreSQL: errors, p99, the server's memory
 *                                      and CPU, polled from GENERATORS (2) processes that report
 *                                      their own CPU; customers sign in over HTTP, or with
 *                                      SOAK_SIGN_IN=database through session rows written directly
 *   npm run bench:load -- --against DIR   this build against the one at DIR, in turns (below)
 *
 * Each Cardbridge run seeds CUSTOMERS customers x CARDS cards (one real bcrypt hash at cost 12
 * shared by all: the sign-in cost is the same) and 6 chat messages each, starts the built server
 * (`dist/server/main.js`, NODE_ENV=production) on it, signs customers in through the API and polls
 * as the browser does: stats, recent, transactions and chat in the spec's proportions (per 30 s per
 * customer: 3, 6, 6, 10), sending back the last ETag as If-None-Match. Meanwhile one chat message
 * per signed-in customer per minute and one staff status change per second keep invalidating.
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from './lib/free-port';
import { leanClient } from './lib/lean-http.mjs';
import { POLLS, type PollerResult } from './lib/polls';
import { createPostgresDatabase } from './lib/postgres';
import {
  cpuSeconds,
  rssMb,
  startBuiltServer,
  stopProcess,
  waitUntilAnswering,
} from './lib/processes';
import { measureRawCeiling, rawCeilingLine } from './lib/raw-ceiling';
import { seedCardbridge, signInSeeded } from './lib/seed';
import { signInStaffOverHttp } from './lib/staff-sign-in';
import { median } from './lib/stats';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_SECONDS', 20);
/** `--customers N` or BENCH_CUSTOMERS. */
const customersArg = process.argv.indexOf('--customers');
const CUSTOMERS =
  customersArg > 0 ? Number(process.argv[customersArg + 1]) : env('BENCH_CUSTOMERS', 1000);
const CARDS = env('BENCH_CARDS', 20);
const SIGNED_IN = env('BENCH_SIGNED_IN', 200);
const CONNECTIONS = env('CONNECTIONS', 50);
const SOAK_SECONDS = env('SOAK_SECONDS', 300);
const PASSWORD = 'bench-password';
const STAFF = { email: 'bench-staff@example.com', password: 'bench staff password' };
const REFERENCE_DIR = path.resolve('../shared/bench/peer-seed-stack');
const soak = process.argv.includes('--soak');
const GENERATORS = env('GENERATORS', 2);
/**
 * How the soak's customers sign in: `http` (the default) through POST /api/signin, 3,000 bcrypt
 * hashes, about 7 minutes here; `database` writes their session rows directly, as sign-ins made
 * before a restart left them, so the first polls also load every session (bench:restart's way).
 */
const SIGN_IN = process.env.SOAK_SIGN_IN === 'database' ? 'database' : 'http';
const SESSION_SECRET = randomBytes(32).toString('hex');

/** One customer's 30 s of polls, interleaved smoothly (3 stats, 6 recent, 6 list, 10 chat). */
const MIX = smoothRoundRobin(POLLS.map((p) => ({ item: p.path, weight: 30_000 / p.everyMs })));

function smoothRoundRobin<T>(entries: { item: T; weight: number }[]): T[] {
  const total = entries.reduce((sum, e) => sum + e.weight, 0);
  const current = entries.map(() => 0);
  const out: T[] = [];
  for (let n = 0; n < total; n++) {
    entries.forEach((e, i) => {
      current[i]! += e.weight;
    });
    const best = current.indexOf(Math.max(...current));
    current[best]! -= total;
    out.push(entries[best]!.item);
  }
  return out;
}

// ---------------------------------------------------------------------------------- processes

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function start(command: string, args: string[], options: { env?: object; cwd?: string } = {}) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (code && !signal) console.error(`${command} ${args.join(' ')} exited ${code}:\n${stderr}`);
  });
  children.push(child);
  return child;
}

// ---------------------------------------------------------------------------------- seeding

// ---------------------------------------------------------------------------------- clients

interface Target {
  name: string;
  base: string;
  signinPath: string;
  pid?: number;
  /** Cardbridge only: the writes that keep invalidating while customers poll. */
  writes?: { cardIds: string[] };
}

/** Signs customers in through the API, a few at a time; returns their cookies in order. */
async function signIn(target: Target, count: number): Promise<string[]> {
  const cookies: string[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const response = await fetch(target.base + target.signinPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: target.base },
        body: JSON.stringify({ email: `user${i}@bench.example`, password: PASSWORD }),
      });
      if (response.status !== 200)
        throw new Error(`${target.name}: sign-in ${i} got ${response.status}`);
      cookies[i] = response.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return cookies;
}

async function staffCookie(target: Target) {
  return (await signInStaffOverHttp(target.base, STAFF)).cookie;
}

/**
 * The writes of a real exchange while customers poll: each signed-in customer sends a chat
 * message a minute, and staff change one of their cards' status every second.
 */
function startWrites(target: Target, cookies: string[], cardIds: string[], staff: string) {
  const statuses = new Map<number, number>();
  const counts = { chat: 0, staff: 0, failed: 0 };
  // The writes go out on the soak generator's lean client (decision 092): with fetch, this
  // process took 12-17% of a core for the soak's 50 writes a second, on the server's cores.
  const client = leanClient({ base: target.base, maxSockets: 16 });
  const send = (url: string, method: string, cookie: string, body: object) =>
    client.request(
      method,
      url,
      `origin: ${target.base}\r\ncookie: ${cookie}\r\n`,
      JSON.stringify(body),
      (status) => {
        if (status < 200 || status > 299) counts.failed++;
      },
    );
  let chatTurn = 0;
  const chat = setInterval(() => {
    const i = chatTurn++ % cookies.length;
    counts.chat++;
    send('/api/chat/messages', 'POST', cookies[i]!, { message: `Bench message ${chatTurn}` });
  }, 60_000 / cookies.length);
  const staffTimer = setInterval(async () => {
    const i = Math.floor(Math.random() * cookies.length);
    const turn = (statuses.get(i) ?? 0) + 1;
    statuses.set(i, turn);
    counts.staff++;
    // An edit says which version of the card it changes (decision 108): read just before, as the
    // review dialog has it open.
    const card = await fetch(`${target.base}/api/admin/transactions/${cardIds[i]}`, {
      headers: { cookie: staff },
    });
    if (!card.ok) {
      counts.failed++;
      return;
    }
    send(`/api/admin/transactions/${cardIds[i]}`, 'PATCH', staff, {
      status: ['processing', 'pending'][turn % 2],
      expectedUpdatedAt: ((await card.json()) as { updatedAt: string }).updatedAt,
    });
  }, 1000);
  return () => {
    clearInterval(chat);
    clearInterval(staffTimer);
    client.close();
    return counts;
  };
}

interface MixResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  notModified: number;
  statuses: Record<string, number>;
}

/**
 * The spec's mix at CONNECTIONS connections: each connection polls as one customer's browser for
 * a 30 s cycle of requests, then as the next customer, sending If-None-Match with the ETag that
 * customer last saw for that path.
 */
async function runMix(target: Target, cookies: string[], seconds: number): Promise<MixResult> {
  const etags = new Map<string, string>();
  const statuses: Record<string, number> = {};
  let connections = 0;
  type Context = { conn?: number; k: number; key: string };
  const requests = MIX.map((pollPath) => ({
    method: 'GET' as const,
    path: pollPath,
    setupRequest: (request: { headers?: Record<string, string> }, context: Context) => {
      context.conn ??= connections++;
      const customer =
        (context.conn + CONNECTIONS * Math.floor(context.k / MIX.length)) % cookies.length;
      context.k++;
      context.key = `${customer} ${pollPath}`;
      const etag = etags.get(context.key);
      request.headers = {
        cookie: cookies[customer]!,
        ...(etag ? { 'if-none-match': etag } : {}),
      };
      return request;
    },
    onResponse: (
      status: number,
      _body: string,
      context: Context,
      headers: Record<string, string>,
    ) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      const etag = headers?.etag ?? headers?.ETag;
      if (etag) etags.set(context.key, etag);
    },
  }));
  const result = await autocannon({
    url: target.base,
    connections: CONNECTIONS,
    duration: seconds,
    initialContext: { k: 0 },
    requests,
  } as autocannon.Options);
  const ok = (statuses['200'] ?? 0) + (statuses['304'] ?? 0);
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: total - ok + result.errors + result.timeouts,
    notModified: statuses['304'] ?? 0,
    statuses,
  };
}

// ---------------------------------------------------------------------------------- targets

/** Another checkout (built, its node_modules present) to start and seed with its own code. */
interface Checkout {
  dir: string;
  seed: typeof seedCardbridge;
}

async function startCardbridge(kind: 'pglite' | 'postgres', dataDir: string, checkout?: Checkout) {
  let databaseUrl: string | undefined;
  let drop = async () => {};
  if (kind === 'postgres') {
    const fresh = await createPostgresDatabase(process.env.DATABASE_URL!, 'cb_bench_load');
    databaseUrl = fresh.url;
    drop = fresh.drop;
  }
  console.log(`  seeding ${CUSTOMERS} customers x ${CARDS} cards on ${kind}...`);
  const where = databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'db') };
  const seeded = await (checkout?.seed ?? seedCardbridge)(where, {
    customers: CUSTOMERS,
    cards: CARDS,
    password: PASSWORD,
    staff: STAFF,
  });
  const server = await startBuiltServer(
    {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      SESSION_SECRET,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    { checkout: checkout?.dir },
  );
  const { base } = server;
  const target: Target = {
    name: kind === 'pglite' ? 'Cardbridge on PGlite' : 'Cardbridge on PostgreSQL',
    base,
    signinPath: '/api/signin',
    pid: server.process.pid,
    writes: seeded,
  };
  return {
    target,
    where,
    async stop() {
      await server.stop();
      await drop();
    },
  };
}

async function startReference() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl || !existsSync(path.join(REFERENCE_DIR, 'server.mjs'))) return null;
  if (!existsSync(path.join(REFERENCE_DIR, 'node_modules'))) {
    console.log('  installing the reference (npm ci)...');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: REFERENCE_DIR, stdio: 'ignore' });
  }
  const fresh = await createPostgresDatabase(databaseUrl, 'peer_ref_bench');
  const refEnv = { ...process.env, DATABASE_URL: fresh.url, USERS: String(CUSTOMERS) };
  console.log(`  seeding the reference (${CUSTOMERS} customers x ${CARDS} cards)...`);
  execFileSync(process.execPath, ['seed.mjs'], {
    cwd: REFERENCE_DIR,
    env: { ...refEnv, CARDS: String(CARDS) },
    stdio: 'ignore',
  });
  execFileSync(process.execPath, ['seed-chat.mjs'], {
    cwd: REFERENCE_DIR,
    env: refEnv,
    stdio: 'ignore',
  });
  const port = await freePort();
  const server = start(process.execPath, ['server.mjs'], {
    cwd: REFERENCE_DIR,
    env: { DATABASE_URL: fresh.url, PORT: String(port) },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${base}/api/stats`, server);
  return {
    target: {
      name: 'reference (Express + connect-pg-simple)',
      base,
      signinPath: '/api/signin',
      pid: server.pid,
    } as Target,
    async stop() {
      await stopProcess(server);
      await fresh.drop();
    },
  };
}

/**
 * Staff searching the queue back to back, each search a new one (no answer from memory): the
 * embedded database works in its own thread, so the polls answered from memory keep flowing.
 */
function startStaffSearches(target: Target, staff: string) {
  let running = true;
  const times: number[] = [];
  const loop = async () => {
    for (let n = 0; running; n++) {
      const started = performance.now();
      const response = await fetch(
        `${target.base}/api/admin/transactions?search=${['no-such-card', 'amazon', 'user1'][n % 3]}-${n}`,
        { headers: { cookie: staff } },
      );
      await response.arrayBuffer();
      times.push(performance.now() - started);
    }
  };
  const done = loop();
  return async () => {
    running = false;
    await done;
    times.sort((a, b) => a - b);
    return { searches: times.length, medianMs: times[times.length >> 1] ?? 0 };
  };
}

async function measure(target: Target, options: { staffSearching?: boolean } = {}) {
  const cookies = await signIn(target, SIGNED_IN);
  let stopWrites: (() => { chat: number; staff: number; failed: number }) | undefined;
  let stopSearches: (() => Promise<{ searches: number; medianMs: number }>) | undefined;
  if (target.writes) {
    const staff = await staffCookie(target);
    stopWrites = startWrites(target, cookies, target.writes.cardIds, staff);
    if (options.staffSearching) stopSearches = startStaffSearches(target, staff);
  }
  await runMix(target, cookies, 3); // warm-up: caches, JIT, connections
  const memoryBefore = target.pid ? rssMb(target.pid) : 0;
  const cpuBefore = target.pid ? cpuSeconds(target.pid) : 0;
  const result = await runMix(target, cookies, SECONDS);
  // The server's CPU per answer of the mix: steadier than req/s on a shared host, where the
  // load generators and the neighbours take their share of the cores.
  const answers = Object.values(result.statuses).reduce((a, b) => a + b, 0);
  const cpuPerAnswerUs = target.pid
    ? (1e6 * (cpuSeconds(target.pid) - cpuBefore)) / Math.max(answers, 1)
    : null;
  const writes = stopWrites?.();
  const searches = await stopSearches?.();
  return {
    ...result,
    writes,
    searches,
    cpuPerAnswerUs,
    memoryMb: target.pid ? [memoryBefore, rssMb(target.pid)] : null,
  };
}

// ---------------------------------------------------------------------------------- modes

const fmt = (n: number, digits = 0) => n.toFixed(digits);

function machine() {
  const cpus = os.cpus();
  return `Machine: ${cpus.length} x ${cpus[0]?.model ?? 'CPU'}, ${fmt(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.type()} ${os.release()}; load generator (autocannon) on the same machine`;
}

async function mixMode() {
  console.log(
    `The spec's mix, ${SIGNED_IN} of ${CUSTOMERS} customers signed in, ${CONNECTIONS} connections, ${SECONDS} s each`,
  );
  console.log(machine());
  const rows: {
    name: string;
    rps: number;
    p50: number;
    p99: number;
    errors: number;
    note: string;
  }[] = [];

  console.log('raw node:http...');
  const rawResult = await measureRawCeiling(SECONDS, CONNECTIONS);
  rows.push({ name: 'raw node:http hello world', ...rawResult, note: '' });

  const reference = await startReference();
  let referenceRps = 0;
  if (reference) {
    console.log('reference...');
    const result = await measure(reference.target);
    await reference.stop();
    referenceRps = result.rps;
    rows.push({
      name: reference.target.name,
      ...result,
      note: 'reads only (it has no chat or staff writes)',
    });
  } else {
    console.log('reference: skipped (needs DATABASE_URL and ../shared/bench/peer-seed-stack)');
  }

  const kinds: ('pglite' | 'postgres')[] = process.env.DATABASE_URL
    ? ['pglite', 'postgres']
    : ['pglite'];
  for (const kind of kinds) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-load-'));
    try {
      const app = await startCardbridge(kind, dataDir);
      for (const staffSearching of [false, true]) {
        console.log(`${app.target.name}${staffSearching ? ', staff searching' : ''}...`);
        const result = await measure(app.target, { staffSearching });
        const w = result.writes!;
        const total = Object.values(result.statuses).reduce((a, b) => a + b, 0);
        rows.push({
          name: `${app.target.name}${staffSearching ? ', while staff search back to back' : ''}`,
          ...result,
          note: [
            `${fmt((100 * result.notModified) / Math.max(1, total))}% 304`,
            result.cpuPerAnswerUs === null
              ? ''
              : `server CPU ${fmt(result.cpuPerAnswerUs)} µs an answer`,
            `writes: ${w.chat} chat, ${w.staff} staff, ${w.failed} failed`,
            result.searches
              ? `${result.searches.searches} staff searches, median ${fmt(result.searches.medianMs, 1)} ms`
              : '',
            `RSS ${result.memoryMb!.map((m) => fmt(m)).join(' -> ')} MB`,
          ]
            .filter(Boolean)
            .join('; '),
        });
      }
      await app.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  console.log(
    `\n| target | req/s | p50 | p99 | errors | vs raw | vs reference | notes |\n|---|---|---|---|---|---|---|---|`,
  );
  for (const row of rows) {
    const vsRef = referenceRps ? `${fmt(row.rps / referenceRps, 1)}x` : '-';
    console.log(
      `| ${row.name} | ${fmt(row.rps)} | ${row.p50} ms | ${row.p99} ms | ${row.errors} | ${fmt((100 * row.rps) / rawResult.rps, 1)}% | ${vsRef} | ${row.note} |`,
    );
  }
}

/**
 * `--against DIR`: this checkout's build and the build of the checkout at DIR (seeded with its own
 * code), each on its own PGlite with the same customers, cards and writes, measured in turns:
 * ROUNDS rounds of the mix for BENCH_SECONDS each, in the order A B B A A B…, so that the host's
 * noise, which moves one build's req/s by ±17% between runs minutes apart, falls on both alike.
 * Prints each turn and the medians of the rounds' ratios, other over this. The server started
 * first (this checkout's) answered about 20% slower in every such run here, whichever build it
 * was: run it both ways (A --against B, then B --against A) and take the geometric mean.
 */
async function compareMode(otherDir: string) {
  const rounds = env('ROUNDS', 8);
  const seconds = env('BENCH_SECONDS', 8);
  const other: Checkout = {
    dir: path.resolve(otherDir),
    seed: (await import(path.resolve(otherDir, 'scripts/lib/seed.ts'))).seedCardbridge,
  };
  console.log(machine());
  const raw = await measureRawCeiling(10, CONNECTIONS);
  console.log(rawCeilingLine(raw));
  const builds = [
    { name: 'this checkout', checkout: undefined },
    { name: other.dir, checkout: other },
  ];
  const dataDirs = builds.map(() => mkdtempSync(path.join(tmpdir(), 'cb-bench-compare-')));
  const started: { app: Awaited<ReturnType<typeof startCardbridge>>; cookies: string[] }[] = [];
  try {
    for (const [i, build] of builds.entries()) {
      console.log(`${build.name}:`);
      const app = await startCardbridge('pglite', dataDirs[i]!, build.checkout);
      started.push({ app, cookies: await signIn(app.target, SIGNED_IN) });
    }
    const stops = await Promise.all(
      started.map(async ({ app, cookies }) =>
        startWrites(app.target, cookies, app.target.writes!.cardIds, await staffCookie(app.target)),
      ),
    );
    for (const { app, cookies } of started) await runMix(app.target, cookies, 3);
    const turns: { rps: number; cpuUs: number }[][] = [[], []];
    console.log(
      `\n| round | build | req/s | server CPU an answer | answers |\n|---|---|---|---|---|`,
    );
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const b of order) {
        const { app, cookies } = started[b]!;
        const cpuBefore = cpuSeconds(app.target.pid!);
        const result = await runMix(app.target, cookies, seconds);
        const answers = Object.values(result.statuses).reduce((a, c) => a + c, 0);
        const cpuUs = (1e6 * (cpuSeconds(app.target.pid!) - cpuBefore)) / Math.max(answers, 1);
        turns[b]!.push({ rps: result.rps, cpuUs });
        console.log(
          `| ${round + 1} | ${builds[b]!.name} | ${fmt(result.rps)} | ${fmt(cpuUs)} µs | ${Object.entries(
            result.statuses,
          )
            .map(([s, n]) => `${n} × ${s}`)
            .join(', ')} |`,
        );
      }
    }
    for (const stop of stops) stop();
    type Turn = { rps: number; cpuUs: number };
    const medianOf = (b: number, pick: (t: Turn) => number) => fmt(median(turns[b]!.map(pick)));
    const ratio = (pick: (t: Turn) => number) =>
      fmt(median(turns[1]!.map((t, r) => pick(t) / pick(turns[0]![r]!))), 3);
    const rps = (t: Turn) => t.rps;
    const cpu = (t: Turn) => t.cpuUs;
    console.log(
      `\nMedians: this checkout ${medianOf(0, rps)} req/s, ${medianOf(0, cpu)} µs an answer; ${other.dir} ${medianOf(1, rps)} req/s, ${medianOf(1, cpu)} µs an answer`,
    );
    console.log(
      `The rounds' ratios, ${other.dir} over this checkout (medians of ${rounds}): req/s ${ratio(rps)}, CPU an answer ${ratio(cpu)}`,
    );
  } finally {
    for (const { app } of started) await app.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Customers polling at the spec's intervals (1,000: 833 req/s) for SOAK_SECONDS, on PGlite, or
 * on PostgreSQL with DATABASE_URL set. The polling is spread over GENERATORS processes
 * (scripts/lib/poller.mjs), each reporting the CPU it used: a generator busy more than 85% of its
 * time was the limit, and the run says so instead of publishing its figures as the server's.
 */
async function soakMode() {
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  // The machine's speed now, so that the soak's figures compare across hosts (issue 45).
  const raw = await measureRawCeiling(env('RAW_SECONDS', 10), CONNECTIONS);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-soak-'));
  const app = await startCardbridge(kind, dataDir);
  const { target } = app;
  console.log(`signing in ${CUSTOMERS} customers (${SIGN_IN})...`);
  const cookies =
    SIGN_IN === 'http'
      ? await signIn(target, CUSTOMERS)
      : await signInSeeded(app.where, SESSION_SECRET);
  const stopWrites = startWrites(
    target,
    cookies,
    target.writes!.cardIds,
    await staffCookie(target),
  );

  console.log(machine());
  const memoryStart = rssMb(target.pid!);
  const serverCpuStart = cpuSeconds(target.pid!);
  console.log(
    `soak on ${kind}: ${CUSTOMERS} customers at the spec's intervals for ${SOAK_SECONDS} s, ${GENERATORS} generator processes (RSS ${fmt(memoryStart)} MB)`,
  );
  const startAt = Date.now() + 500;
  const shares = Array.from({ length: GENERATORS }, (_, g) =>
    cookies.filter((_, i) => i % GENERATORS === g),
  );
  const progress = setInterval(() => {
    console.log(`  RSS ${fmt(rssMb(target.pid!))} MB`);
  }, 60_000);
  // The server's CPU once a second from the soak's start: what the first wave cost (issue 45).
  const cpuSamples: { at: number; cpu: number }[] = [];
  const sampleCpu = () =>
    cpuSamples.push({ at: Date.now() - startAt, cpu: cpuSeconds(target.pid!) });
  const firstSample = setTimeout(sampleCpu, Math.max(0, startAt - Date.now()));
  const sampler = setInterval(sampleCpu, 1000);
  const results = await Promise.all(
    shares.map(
      (share) =>
        new Promise<PollerResult>((resolve, reject) => {
          const child = fork(path.join(import.meta.dirname, 'lib', 'poller.mjs'), [], {
            execArgv: [],
          });
          child.once('message', (result) => resolve(result as PollerResult));
          child.once(
            'exit',
            (code) => code !== 0 && reject(new Error(`a generator exited ${code}`)),
          );
          child.send({
            base: target.base,
            cookies: share,
            polls: POLLS,
            seconds: SOAK_SECONDS,
            startAt,
          });
        }),
    ),
  );
  clearInterval(progress);
  clearTimeout(firstSample);
  clearInterval(sampler);
  const serverCpuSeconds = cpuSeconds(target.pid!) - serverCpuStart;
  const serverBusy = serverCpuSeconds / (SOAK_SECONDS + 2.5);
  const writes = stopWrites();
  const memoryEnd = rssMb(target.pid!);
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const answers = results.flatMap((r) =>
    r.answers.map(([at, ms, kind, which]) => ({ at, ms, kind, path: POLLS[which]!.path })),
  );
  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const r of results) {
    for (const [status, n] of Object.entries(r.statuses))
      statuses[status] = (statuses[status] ?? 0) + n;
  }
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  const errors =
    Object.entries(statuses)
      .filter(([s]) => s !== '200' && s !== '304')
      .reduce((sum, [, n]) => sum + n, 0) + results.reduce((sum, r) => sum + r.networkErrors, 0);
  const busiest = Math.max(...results.map((r) => r.busy));
  console.log(`\n| soak on ${kind} | value |\n|---|---|`);
  console.log(`| customers, seconds | ${CUSTOMERS}, ${SOAK_SECONDS} |`);
  console.log(
    `| requests (req/s) | ${latencies.length} (${fmt(latencies.length / SOAK_SECONDS)}) |`,
  );
  console.log(`| statuses | ${JSON.stringify(statuses)} |`);
  console.log(`| errors | ${errors} |`);
  console.log(
    `| p50 / p99 / max | ${fmt(at(0.5), 1)} / ${fmt(at(0.99), 1)} / ${fmt(latencies.at(-1) ?? 0, 1)} ms |`,
  );
  console.log(
    `| ticks skipped (the last poll of that path still out, as the browser does) | ${results.reduce((sum, r) => sum + r.skipped, 0)} |`,
  );
  console.log(`| writes | ${writes.chat} chat, ${writes.staff} staff, ${writes.failed} failed |`);
  console.log(
    `| server RSS start -> end | ${fmt(memoryStart)} -> ${fmt(memoryEnd)} MB (${fmt(memoryEnd - memoryStart, 1)} MB) |`,
  );
  console.log(`| server CPU | ${fmt(100 * serverBusy)}% of a core |`);
  // Cold answers: a path's first poll or a changed one (a 200 built afresh); the 304s and the
  // writes cost little beside them, so this bounds the cost of a cold answer from above.
  const cold = answers.filter((a) => a.kind === 'first' || a.kind === 'changed').length;
  console.log(
    `| server CPU per cold answer (all CPU / ${cold} first or changed answers) | ${fmt((1000 * serverCpuSeconds) / Math.max(cold, 1), 3)} ms |`,
  );
  const wave = waveCost(answers, cpuSamples);
  if (wave) {
    console.log(
      `| server CPU per cold answer over the first wave (0-${fmt(wave.seconds, 1)} s, until every first poll was answered: ${fmt(wave.cpuSeconds, 2)} CPU s / ${wave.cold} cold answers) | **${fmt(wave.perAnswerMs, 3)} ms** |`,
    );
  }
  console.log(
    `| ${rawCeilingLine(raw)} | ${wave ? `a cold answer of the wave: ${fmt(wave.perAnswerMs / raw.cpuPerRequestMs)} raw requests' CPU` : ''} |`,
  );
  console.log(
    `| generators' CPU | ${results.map((r) => `${fmt(100 * r.busy)}%`).join(', ')} of a core each |`,
  );
  if (busiest > 0.85) {
    console.log(
      `\nA generator was busy ${fmt(100 * busiest)}% of its time: the load generator was the limit, so these figures do not measure the server. Run with more GENERATORS, or on a larger machine.`,
    );
  }
  printBreakdown(answers);
}

/**
 * The server's CPU over the soak's first wave ÷ the cold answers (first or changed, built afresh)
 * sent in it: from the start until the last first poll was answered, to the next CPU sample. The
 * wave's 304s and writes are counted in, so it bounds a cold answer's cost from above.
 */
function waveCost(
  answers: { at: number; ms: number; kind: string }[],
  samples: { at: number; cpu: number }[],
) {
  const firsts = answers.filter((a) => a.kind === 'first');
  if (firsts.length === 0 || samples.length < 2) return null;
  const end = Math.max(...firsts.map((a) => a.at + a.ms));
  const last = samples.find((s) => s.at >= end) ?? samples.at(-1)!;
  const cold = answers.filter(
    (a) => (a.kind === 'first' || a.kind === 'changed') && a.at <= last.at,
  ).length;
  const cpuSeconds = last.cpu - samples[0]!.cpu;
  return { seconds: last.at / 1000, cpuSeconds, cold, perAnswerMs: (1000 * cpuSeconds) / cold };
}

/**
 * Where the slow answers are: the first 30 s (every customer's first polls) against the rest, by
 * what the answer was (the first polls by path too), and by 10 s window.
 */
function printBreakdown(answers: { at: number; ms: number; kind: string; path: string }[]) {
  const summary = (list: { ms: number }[]) => {
    const ms = list.map((a) => a.ms).sort((a, b) => a - b);
    const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * p))] ?? 0;
    return `${ms.length} | ${fmt(q(0.5), 1)} | ${fmt(q(0.99), 1)} | ${fmt(ms.at(-1) ?? 0, 1)}`;
  };
  console.log(
    `\n| part of the soak | requests | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|`,
  );
  console.log(`| first 30 s | ${summary(answers.filter((a) => a.at < 30_000))} |`);
  console.log(`| after 30 s | ${summary(answers.filter((a) => a.at >= 30_000))} |`);
  for (const [kind, label] of [
    ['first', 'first poll of a path (no ETag yet)'],
    ['changed', 'changed since the last poll (200)'],
    ['unchanged', 'unchanged (304)'],
    ['error', 'errors'],
  ] as const) {
    const list = answers.filter((a) => a.kind === kind);
    if (list.length > 0) console.log(`| ${label} | ${summary(list)} |`);
    if (kind !== 'first') continue;
    for (const { path } of POLLS) {
      console.log(`| - of ${path} | ${summary(list.filter((a) => a.path === path))} |`);
    }
  }
  const windows = new Map<number, { ms: number }[]>();
  for (const a of answers) {
    const w = Math.floor(a.at / 10_000);
    if (!windows.has(w)) windows.set(w, []);
    windows.get(w)!.push(a);
  }
  console.log(`\nby 10 s window (requests sent in it): requests, p50 / p99 / max ms`);
  for (const [w, list] of [...windows].sort((a, b) => a[0] - b[0])) {
    console.log(`  ${String(w * 10).padStart(4)} s: ${summary(list).replaceAll(' | ', ', ')}`);
  }
}

const againstArg = process.argv.indexOf('--against');
await (againstArg > 0 ? compareMode(process.argv[againstArg + 1]!) : soak ? soakMode() : mixMode());
process.exit(0);
