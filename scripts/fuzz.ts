/**
 * npm run fuzz [-- <requests> [--seed N] [--concurrency N] [--small] [--keep]]
 *
 * Sends 100,000 generated requests (tests/fuzz) to every route as anonymous, customer and staff
 * through an in-process app on a fresh embedded database (or a fresh database beside
 * DATABASE_URL), prints the counts by status and by route, sends the raw-socket cases, then
 * checks the database invariants and, after the housekeeping sweep, that no stored file lacks
 * its row. Exits 1 on any 5xx, broken contract or violated invariant. Failing requests are
 * written in full to fuzz-failures.json in the data folder, which is then kept.
 *
 *   <requests>       how many (default 100000)
 *   --seed N         replay a run (default: a random seed, printed)
 *   --concurrency N  requests in flight (default 1: logs are matched to their request exactly)
 *   --small          no bodies over the 1 MiB limit nor 10 MB uploads
 *   --keep           keep the data folder even when everything held
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTestApp } from '../tests/api/helpers';
import { databaseInvariants, sweepAndCheckStorage } from '../tests/fuzz/invariants';
import { seedFrom } from '../tests/fuzz/rng';
import {
  buildWorld,
  describeFailure,
  failureReport,
  failuresAsJson,
  requestLine,
  routeTable,
  runFuzz,
  runRaw,
  statusTable,
} from '../tests/fuzz/runner';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '1' },
    small: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(positionals[0] ?? process.env.FUZZ_REQUESTS ?? 100_000);
const SEED = seedFrom(values.seed ?? process.env.FUZZ_SEED, (Math.random() * 2 ** 32) >>> 0);
const CONCURRENCY = Number(values.concurrency);
if (!Number.isInteger(REQUESTS) || REQUESTS < 1) throw new Error('requests must be a number');

// Its logs are captured in memory (runner.ts): a failing request is printed with its stack.
const t = await createTestApp({ logLevel: 'warn' }, { onDisk: true });
console.log(
  `Fuzzing ${REQUESTS.toLocaleString()} requests, seed ${SEED} (replay: npm run fuzz -- ${REQUESTS} --seed ${SEED}), on ${t.config.databaseUrl ? 'PostgreSQL' : t.config.dataDir}`,
);
const world = await buildWorld(t);
const started = performance.now() / 1000;
let shown = 0;
// An exception outside any request (a timer in a plugin) is a defect too: counted, not fatal.
const uncaught: string[] = [];
// Except one: the body deadline (plugins/request-deadline.ts) destroys the socket of a request
// whose body never ended, and an injected request has no socket to destroy. It fires only for
// a request that hung, which is already a failure of its own.
let deadlineOnInject = 0;
process.on('uncaughtException', (error) => {
  if (
    /request-deadline/.test(error.stack ?? '') &&
    /destroy is not a function/.test(error.message)
  ) {
    deadlineOnInject++;
    return;
  }
  uncaught.push(error.stack ?? String(error));
  console.log(`\nUNCAUGHT ${error.stack ?? error}\n`);
});
const result = await runFuzz(t, world, {
  seed: SEED,
  requests: REQUESTS,
  big: !values.small,
  timeoutMs: 15_000,
  concurrency: CONCURRENCY,
  strayShare: 0.05,
  corpus: true,
  onProgress(done, stats) {
    if (done % 5_000 !== 0) return;
    const fives = [...stats.byStatus.entries()]
      .filter(([s]) => s.startsWith('5') || s === 'timeout')
      .reduce((sum, [, n]) => sum + n, 0);
    const rate = done / (performance.now() / 1000 - started);
    console.log(`  ${done.toLocaleString()} sent, ${fives} 5xx/hung, ${rate.toFixed(0)}/s`);
  },
  onFailure(failure) {
    shown++;
    if (shown <= 20) console.log(`\nFAIL ${describeFailure(failure, SEED)}\n`);
    else if (shown === 21) console.log('  (more failures: see the report at the end)');
  },
  onSend: process.env.FUZZ_TRACE
    ? (request) => {
        if (request.index >= Number(process.env.FUZZ_TRACE)) {
          console.log(`  → ${requestLine(request)} (${request.payload?.length ?? 0} bytes)`);
        }
      }
    : undefined,
  onSlow(ms, request, status) {
    console.log(`  slow: ${(ms / 1000).toFixed(1)} s → ${status} ${requestLine(request)}`);
  },
});

console.log(`\n${statusTable(result.stats)}`);
console.log(`\nby route (status:count):\n${routeTable(result.stats)}`);
if (result.uncatalogued.length > 0) {
  console.log(`\nfuzzed generically (no catalogue entry): ${result.uncatalogued.join(', ')}`);
}
if (result.stale.length > 0) {
  console.log(`\ncatalogue routes the app does not register: ${result.stale.join(', ')}`);
}
console.log('\nslowest requests:');
for (const s of result.stats.slowest.slice(0, 5)) {
  console.log(`  ${s.ms.toFixed(0)} ms → ${s.status} ${requestLine(s.request)}`);
}
if (result.stats.sessionsRenewed > 0) {
  console.log(`\nsessions signed in again during the run: ${result.stats.sessionsRenewed}`);
}
if (result.stats.quietErrors.length > 0) {
  console.log(`\n${result.stats.quietErrors.length} request(s) logged an error without a 5xx:`);
  for (const q of result.stats.quietErrors.slice(0, 5)) {
    console.log(`  → ${q.status} ${requestLine(q.request)}\n    ${q.lines[0]?.slice(0, 500)}`);
  }
}

if (result.stats.notes.size > 0) {
  console.log('\nnotes (not failures):');
  for (const [note, count] of result.stats.notes) console.log(`  ${count} × ${note}`);
}

const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
const raw = await runRaw(Number(new URL(address).port), world);
console.log(
  `\nraw socket: ${raw.results.length} requests, statuses ${[
    ...new Set(raw.results.map((r) => r.status ?? 'closed')),
  ].join(', ')}`,
);

const invariants = [
  ...(await databaseInvariants(t.database)),
  ...(await sweepAndCheckStorage(t.database, t.app.storage, path.join(t.config.dataDir, 'objects')))
    .invariants,
];
console.log('\ninvariants:');
for (const i of invariants) {
  console.log(
    `  ${i.violations === 0 ? 'ok  ' : 'FAIL'} ${i.name}${i.violations ? `: ${i.violations} ${JSON.stringify(i.examples)}` : ''}`,
  );
}
const counts = (
  await t.database.pool.query(
    `select (select count(*) from transactions)::int as transactions,
            (select count(*) from payment_methods)::int as payment_methods,
            (select count(*) from uploads)::int as uploads,
            (select count(*) from users)::int as users,
            (select count(*) from chat_messages)::int as chat_messages,
            (select count(*) from support_tickets)::int as tickets`,
  )
).rows[0];
console.log(`  (rows after the run: ${JSON.stringify(counts)})`);

if (deadlineOnInject > 0) {
  console.log(
    `\n${deadlineOnInject} × the body deadline fired on a hung injected request (no socket to destroy)`,
  );
}

const failures = [...result.failures, ...raw.failures];
const broken = invariants.filter((i) => i.violations > 0);
let keep = values.keep;
if (failures.length > 0) {
  console.log(`\n${failureReport(failures, SEED, 30)}`);
  const file = path.join(t.config.dataDir, 'fuzz-failures.json');
  writeFileSync(file, failuresAsJson(failures, SEED));
  console.log(`\nevery failing request, in full: ${file}`);
  keep = true;
}
const fives = [...result.stats.byStatus.entries()]
  .filter(([s]) => s.startsWith('5'))
  .reduce((sum, [, n]) => sum + n, 0);
console.log(
  `\n${fives} × 5xx, ${failures.length} failing request(s), ${broken.length} violated invariant(s), ${uncaught.length} uncaught exception(s)`,
);
await t.close();
if (!keep) rmSync(t.config.dataDir, { recursive: true, force: true });
const failed = fives > 0 || failures.length > 0 || broken.length > 0 || uncaught.length > 0;
process.exit(failed ? 1 : 0);
