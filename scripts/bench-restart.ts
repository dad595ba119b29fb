/**
 * npm run bench:restart: the first polls after a restart (issue 26). CUSTOMERS customers with
 * CARDS cards each, every one signed in (a session row each, as before the restart); the built
 * server starts on that data with nothing in memory, and each customer opens their page once
 * within SPREAD_SECONDS: its four polls at once, without an ETag (a fresh page). Reports the
 * answers' p50 and p99 over RUNS restarts (medians), and on PostgreSQL (DATABASE_URL set) the
 * session rows written and the session statements run meanwhile (pg_stat).
 *
 *   npm run bench:restart               on PGlite, and on PostgreSQL when DATABASE_URL is set
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPostgresDatabase } from './lib/postgres';
import { cpuSeconds, startBuiltServer } from './lib/processes';
import { measureRawCeiling, rawCeilingLine } from './lib/raw-ceiling';
import { seedCardbridge, signInSeeded } from './lib/seed';
import { median, percentile } from './lib/stats';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CUSTOMERS = env('BENCH_CUSTOMERS', 1000);
const CARDS = env('BENCH_CARDS', 20);
const SPREAD_SECONDS = env('SPREAD_SECONDS', 5);
const RUNS = env('RUNS', 3);
const SECRET = randomBytes(32).toString('hex');
const DATA_KEY = randomBytes(32).toString('hex');
const POLLS = ['/api/stats', '/api/transactions/recent', '/api/transactions', '/api/chat/messages'];

const byValue = (a: number, b: number) => a - b;

/** What PostgreSQL counted on the sessions table and for the session statements so far. */
async function sessionStats(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ updated: string }>(
      "select n_tup_upd::text as updated from pg_stat_user_tables where relname = 'sessions'",
    );
    return { updated: Number(rows[0]?.updated ?? 0) };
  } finally {
    await client.end();
  }
}

async function restartRun(kind: 'PGlite' | 'PostgreSQL', dataDir: string, databaseUrl?: string) {
  const statsBefore = databaseUrl ? await sessionStats(databaseUrl) : null;
  const server = await startBuiltServer({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    SESSION_SECRET: SECRET,
    DATA_ENCRYPTION_KEY: DATA_KEY,
    LOG_LEVEL: 'warn',
  });
  const cookies = cookiesOf.get(kind)!;
  const times: number[] = [];
  // The answers' times by the second of the wave their customer opened the page in.
  const bySecond: number[][] = Array.from({ length: Math.ceil(SPREAD_SECONDS) }, () => []);
  let errors = 0;
  const statuses: Record<number, number> = {};
  const failures: Record<string, number> = {};
  const started = performance.now();
  const serverCpu = cpuSeconds(server.process.pid!);
  const ownCpu = process.cpuUsage();
  await Promise.all(
    cookies.map(async (cookie, i) => {
      // Customer i opens their page at a moment spread evenly over the first seconds.
      const opensAt = (i / cookies.length) * SPREAD_SECONDS;
      await new Promise((r) => setTimeout(r, opensAt * 1000));
      await Promise.all(
        POLLS.map(async (poll) => {
          const t0 = performance.now();
          // A connection the server closed is an error of the run, not the end of the benchmark.
          const status = await fetch(server.base + poll, { headers: { cookie } }).then(
            async (response) => {
              await response.arrayBuffer();
              return response.status;
            },
            (error: Error & { cause?: { code?: string } }) => {
              const why = `${error.cause?.code ?? error.message}`;
              failures[why] = (failures[why] ?? 0) + 1;
              return 0;
            },
          );
          const took = performance.now() - t0;
          times.push(took);
          bySecond[Math.floor(opensAt)]!.push(took);
          if (status !== 200) errors++;
          statuses[status] = (statuses[status] ?? 0) + 1;
        }),
      );
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // What the wave cost: the server's CPU, and this generator's (on the same 2 cores).
  const cpu = {
    server: cpuSeconds(server.process.pid!) - serverCpu,
    generator: (process.cpuUsage(ownCpu).user + process.cpuUsage(ownCpu).system) / 1e6,
  };
  if (errors > 0)
    console.log(
      `${errors} errors (${JSON.stringify(statuses)}, 0: no answer: ${JSON.stringify(failures)}); the server printed:\n${server.output().slice(-3000)}`,
    );
  await server.stop();
  let sessionRowsWritten: number | null = null;
  if (databaseUrl && statsBefore) {
    // PostgreSQL publishes a transaction's counts within about a second of its end.
    await new Promise((r) => setTimeout(r, 1500));
    sessionRowsWritten = (await sessionStats(databaseUrl)).updated - statsBefore.updated;
  }
  times.sort(byValue);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    p99BySecond: bySecond.map((t) => percentile(t.sort(byValue), 99)),
    max: times.at(-1)!,
    errors,
    requests: times.length,
    seconds,
    cpu,
    sessionRowsWritten,
  };
}

const cookiesOf = new Map<string, string[]>();
const targets: { kind: 'PGlite' | 'PostgreSQL' }[] = [{ kind: 'PGlite' }];
if (process.env.DATABASE_URL) targets.push({ kind: 'PostgreSQL' });

console.log(
  `${CUSTOMERS} signed-in customers x ${CARDS} cards; after each restart every customer opens their page once within ${SPREAD_SECONDS} s (4 polls at once, no ETag); ${RUNS} restarts`,
);
for (const target of targets) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-restart-'));
  const fresh =
    target.kind === 'PostgreSQL'
      ? await createPostgresDatabase(process.env.DATABASE_URL!, 'cb_bench_restart')
      : null;
  const where = fresh ? { databaseUrl: fresh.url } : { pgliteDir: path.join(dataDir, 'db') };
  await seedCardbridge(where, {
    customers: CUSTOMERS,
    cards: CARDS,
    password: 'bench-password',
    staff: { email: 'bench-staff@example.com', password: 'bench staff password' },
  });
  cookiesOf.set(target.kind, await signInSeeded(where, SECRET));
  // One restart first, not counted: the generator's own code is cold in its first wave (its CPU
  // was a third higher than in the next ones, and so were the answers' times).
  await restartRun(target.kind, dataDir, fresh?.url);
  const runs = [];
  for (let run = 0; run < RUNS; run++)
    runs.push(await restartRun(target.kind, dataDir, fresh?.url));
  // The machine's speed in the same run, beside the figures (issue 45): after the waves, on the
  // same cores, so that a noisy hour shows in both.
  const raw = await measureRawCeiling(env('RAW_SECONDS', 10));
  const written = runs.map((r) => r.sessionRowsWritten);
  console.log(
    `${target.kind.padEnd(10)} first polls p50 ${median(runs.map((r) => r.p50)).toFixed(0)} ms (${runs.map((r) => r.p50.toFixed(0)).join(', ')}), ` +
      `p99 ${median(runs.map((r) => r.p99)).toFixed(0)} ms (${runs.map((r) => r.p99.toFixed(0)).join(', ')}), ` +
      `max ${median(runs.map((r) => r.max)).toFixed(0)} ms, errors ${runs.map((r) => r.errors).join('/')}, ` +
      `p99 by second of the wave ${runs.map((r) => r.p99BySecond.map((t) => t.toFixed(0)).join('/')).join(', ')} ms, ` +
      `CPU server ${runs.map((r) => r.cpu.server.toFixed(1)).join('/')} s, generator ${runs.map((r) => r.cpu.generator.toFixed(1)).join('/')} s, ` +
      // Every answer of the wave is cold (no ETag sent): the server's CPU over them compares across hosts.
      `server CPU per cold answer ${median(runs.map((r) => (1000 * r.cpu.server) / r.requests)).toFixed(3)} ms (${runs.map((r) => ((1000 * r.cpu.server) / r.requests).toFixed(3)).join(', ')})` +
      (written[0] !== null ? `, session rows written ${written.join('/')}` : '') +
      `; ${rawCeilingLine(raw)}; so a cold answer costs ${(median(runs.map((r) => (1000 * r.cpu.server) / r.requests)) / raw.cpuPerRequestMs).toFixed(0)} raw requests' CPU`,
  );
  await fresh?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
