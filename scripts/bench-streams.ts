/**
 * npm run bench:streams: a broadcast to many open pages (issue 26, item 5). STREAMS customers
 * (10,000), each signed in with one `GET /api/events` stream open, held by LISTENERS child
 * processes (scripts/lib/listener.mjs). A staff member then changes a brand's rate, which every
 * stream must hear (`event: rates`). Reports, for RUNS changes: the change request's own time,
 * and when each stream received the event after the request was sent (p50, p99, max, how many
 * heard it), plus the server's RSS and CPU with the streams open and idle. On PGlite, or on
 * PostgreSQL with DATABASE_URL. Targets: p99 ≤ 250 ms to all, the request ≤ 50 ms.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresDatabase } from './lib/postgres';
import { cpuSeconds, rssMb, startBuiltServer } from './lib/processes';
import { seedCardbridge, signInSeeded } from './lib/seed';
import { median, percentile } from './lib/stats';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const STREAMS = env('STREAMS', 10_000);
const LISTENERS = env('LISTENERS', 2);
const RUNS = env('RUNS', 5);
const SECRET = randomBytes(32).toString('hex');
const here = path.dirname(fileURLToPath(import.meta.url));

const fmt = (n: number) => (n >= 100 ? Math.round(n).toString() : n.toFixed(1));

/** Sends a message to a listener and waits for its answer of `type`. */
function ask<T>(child: ChildProcess, message: object, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (answer: { type: string }) => {
      if (answer.type !== type) return;
      child.off('message', onMessage);
      resolve(answer as T);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-streams-'));
const fresh = process.env.DATABASE_URL
  ? await createPostgresDatabase(process.env.DATABASE_URL, 'cb_bench_streams')
  : null;
const where = fresh ? { databaseUrl: fresh.url } : { pgliteDir: path.join(dataDir, 'db') };
const kind = fresh ? 'PostgreSQL' : 'PGlite';
await seedCardbridge(where, {
  customers: STREAMS,
  cards: 1,
  password: 'bench-password',
  staff: { email: 'bench-staff@example.com', password: 'bench staff password' },
});
const customers = await signInSeeded(where, SECRET);
const [staff] = await signInSeeded(where, SECRET, 'admin');
const server = await startBuiltServer({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DATABASE_URL: fresh?.url ?? '',
  SESSION_SECRET: SECRET,
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
});

const rssBefore = rssMb(server.process.pid!);
const listeners = Array.from({ length: LISTENERS }, () =>
  fork(path.join(here, 'lib/listener.mjs'), { stdio: 'inherit' }),
);
const share = Math.ceil(customers.length / LISTENERS);
const openStarted = performance.now();
const opened = await Promise.all(
  listeners.map((child, i) =>
    ask<{ opened: number; failed: number }>(
      child,
      { type: 'open', base: server.base, cookies: customers.slice(i * share, (i + 1) * share) },
      'opened',
    ),
  ),
);
const open = opened.reduce((sum, o) => sum + o.opened, 0);
const failed = opened.reduce((sum, o) => sum + o.failed, 0);
console.log(
  `${kind}: ${open} streams open (${failed} failed) in ${fmt((performance.now() - openStarted) / 1000)} s, ${LISTENERS} listener processes; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`,
);

// Idle with every stream open: the heartbeats only.
await new Promise((r) => setTimeout(r, 2000));
const idleCpuStart = cpuSeconds(server.process.pid!);
await new Promise((r) => setTimeout(r, 10_000));
const idleCpu = (cpuSeconds(server.process.pid!) - idleCpuStart) / 10;
const rss = rssMb(server.process.pid!);
const perStreamKb = ((rss - rssBefore) * 1024) / Math.max(open, 1);
console.log(
  `idle: server RSS ${fmt(rssBefore)} -> ${fmt(rss)} MB (${fmt(perStreamKb)} KB a stream), CPU ${fmt(idleCpu * 100)}% of a core`,
);

const runs: { request: number; p50: number; p99: number; max: number; heard: number }[] = [];
for (let run = 0; run < RUNS; run++) {
  await Promise.all(
    listeners.map((child) => ask(child, { type: 'expect', topic: 'rates' }, 'expecting')),
  );
  const sentAt = Date.now();
  const t0 = performance.now();
  const response = await fetch(`${server.base}/api/admin/rates/Amazon`, {
    method: 'PUT',
    headers: { cookie: staff!, 'content-type': 'application/json' },
    body: JSON.stringify({ rate: run % 2 === 0 ? '0.9000' : '0.9100' }),
  });
  await response.arrayBuffer();
  const request = performance.now() - t0;
  if (response.status !== 200) throw new Error(`the rate change answered ${response.status}`);
  // Every stream has had time to hear it.
  await new Promise((r) => setTimeout(r, 3000));
  const arrivals = (
    await Promise.all(
      listeners.map((child) => ask<{ arrivals: number[] }>(child, { type: 'collect' }, 'arrivals')),
    )
  )
    .flatMap((a) => a.arrivals)
    .map((at) => at - sentAt)
    .sort((a, b) => a - b);
  const result = {
    request,
    p50: percentile(arrivals, 50),
    p99: percentile(arrivals, 99),
    max: arrivals.at(-1) ?? Number.NaN,
    heard: arrivals.length,
  };
  runs.push(result);
  console.log(
    `change ${run + 1}: request ${fmt(result.request)} ms; heard by ${result.heard}/${open} streams, p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, max ${fmt(result.max)} ms (load ${loadavg()[0]!.toFixed(2)})`,
  );
  await new Promise((r) => setTimeout(r, 1000));
}

console.log(`\n| ${kind}, ${open} streams, medians of ${RUNS} changes | value | target |`);
console.log('|---|---|---|');
console.log(`| the change request | ${fmt(median(runs.map((r) => r.request)))} ms | ≤ 50 ms |`);
console.log(`| heard by | ${median(runs.map((r) => r.heard))} of ${open} | all |`);
console.log(`| p50 to hear it | ${fmt(median(runs.map((r) => r.p50)))} ms | |`);
console.log(`| p99 to hear it | ${fmt(median(runs.map((r) => r.p99)))} ms | ≤ 250 ms |`);
console.log(`| max | ${fmt(median(runs.map((r) => r.max)))} ms | |`);
console.log(
  `| idle: RSS, a stream, CPU | ${fmt(rss)} MB, ${fmt(perStreamKb)} KB, ${fmt(idleCpu * 100)}% of a core | |`,
);

for (const child of listeners) child.send({ type: 'close' });
await server.stop();
await fresh?.drop();
rmSync(dataDir, { recursive: true, force: true });
