/**
 * npm run bench:payouts: automatic USDT payouts on a local chain (issue 40). Each run seeds
 * APPROVALS sellers (a BEP-20 wallet each and one $100 card waiting for review, $91.00 owed),
 * starts ganache with OpenZeppelin's ERC-20 and a funded hot wallet, starts the built server
 * (dist/server/main.js, NODE_ENV=production) with automatic payout on, and staff approve every
 * card at once over HTTP (through APPROVING connections, 50). Measured from the first approval:
 * every card approved, every payout sent (its transfer signed and broadcast) and every payout
 * confirmed (CONFIRMATIONS blocks on top; a block is mined every BLOCK_MS besides those the
 * transfers make). Then the chain is read: exactly APPROVALS Transfer events out of the hot
 * wallet, one to each seller, of 91 tokens each. Medians of RUNS runs (3), with a raw node:http
 * hello world's req/s measured in the same run beside them (what this machine gives at all).
 * Throughout each run POLLERS (300) other customers, seeded with 20 cards each and signed in by
 * session rows, poll at the spec's intervals (scripts/lib/polls.ts): their answers from the first
 * approval until all are confirmed are compared with those in the 10 s before it.
 *
 *   npm run bench:payouts              on PGlite, or on PostgreSQL when DATABASE_URL is set
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { upsertAdmin } from '../src/server/common/accounts';
import { openDatabase } from '../src/server/db/client';
import { payoutRails } from '../src/server/db/schema';
import { CARD_UNITS, seedUsdtSellers, startEvmNode, TOKEN } from '../tests/cluster/chain';
import {
  FIRST_WAVE_MS,
  type Polled,
  pollingLine,
  QUIET_MS,
  seedPollingCustomers,
  startPolling,
} from './lib/polls';
import { createPostgresDatabase } from './lib/postgres';
import { cpuSeconds, startBuiltServer } from './lib/processes';
import { measureRawCeiling } from './lib/raw-ceiling';
import { signInStaffOverHttp } from './lib/staff-sign-in';
import { median } from './lib/stats';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const APPROVALS = env('APPROVALS', 1000);
const RUNS = env('RUNS', 3);
const CONFIRMATIONS = env('CONFIRMATIONS', 3);
const BLOCK_MS = env('BLOCK_MS', 1000);
const RAW_SECONDS = env('RAW_SECONDS', 10);
const APPROVING = env('APPROVING', 50);
const STAFF = { email: 'bench-finance@example.com', password: 'bench finance password' };
const POLLERS = env('POLLERS', 300);

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rawRequestsPerSecond = async () => (await measureRawCeiling(RAW_SECONDS)).rps;

interface RunResult {
  approvedS: number;
  sentS: number;
  confirmedS: number;
  transfers: number;
  serverCpuS: number;
  polled: Polled;
  quiet: [number, number];
  paying: [number, number];
}

async function run(n: number): Promise<RunResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-payouts-'));
  const fresh = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL, 'cb_bench_payouts')
    : undefined;
  const where = fresh ? { databaseUrl: fresh.url } : { pgliteDir: path.join(dataDir, 'db') };
  const node = await startEvmNode(BigInt(APPROVALS) * 91n * TOKEN + 100n * TOKEN);
  console.log(`run ${n}: seeding ${POLLERS} polling customers and ${APPROVALS} sellers...`);
  const sessionSecret = randomBytes(32).toString('hex');
  const cookies = await seedPollingCustomers(where, POLLERS, sessionSecret, STAFF);
  const seeding = await openDatabase(where);
  await seeding.migrate();
  const cards = await seedUsdtSellers(seeding.db, APPROVALS, `run${n}`);
  await upsertAdmin(seeding.db, STAFF, 4);
  // Automatic payout on, as finance would turn it on (PUT /api/admin/payout-rails/usdt_bep20).
  await seeding.db.insert(payoutRails).values({ rail: 'usdt_bep20', autoPayout: true });
  await seeding.close();

  const server = await startBuiltServer({
    NODE_ENV: 'production',
    DATABASE_URL: fresh?.url,
    DATA_DIR: dataDir,
    SESSION_SECRET: sessionSecret,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    PAYOUT_HOLD_NEW_METHOD_HOURS: '0',
    PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
    ...node.env(CONFIRMATIONS),
  });
  // PGlite is the server's own: the progress is read through the API's payout list.
  const { cookie } = await signInStaffOverHttp(server.base, STAFF);
  const headers = { cookie, 'content-type': 'application/json', origin: server.base };
  const polling = startPolling(server.base, cookies);
  let polled: Polled | undefined;
  const miner = setInterval(() => void node.mine(1).catch(() => {}), BLOCK_MS);
  try {
    await sleep(FIRST_WAVE_MS);
    const quiet: [number, number] = [Date.now(), Date.now() + QUIET_MS];
    await sleep(QUIET_MS);
    const cpuBefore = cpuSeconds(server.process.pid!);
    const startedAt = Date.now();
    const started = performance.now();
    // All at once, through APPROVING connections (1,000 sockets opened together are reset).
    const answers: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: APPROVING }, async () => {
        while (next < cards.length) {
          const card = cards[next++]!;
          const response = await fetch(`${server.base}/api/admin/transactions/${card.id}`, {
            method: 'PATCH',
            headers,
            body: JSON.stringify({ status: 'completed', expectedUpdatedAt: card.updatedAt }),
          });
          await response.body?.cancel();
          answers.push(response.status);
        }
      }),
    );
    const approvedS = (performance.now() - started) / 1000;
    const refused = answers.filter((s) => s !== 200).length;
    if (refused > 0) throw new Error(`${refused} approvals were not 200`);

    // Sent: read on the chain (its Transfer events); confirmed: no payout left queued, submitted
    // or failed in the staff API's list (asked only once all are sent, to load the server less).
    let sentS = 0;
    let confirmedS = 0;
    for (;;) {
      const elapsed = (performance.now() - started) / 1000;
      if (!sentS && (await node.transfersOut()).length >= APPROVALS) sentS = elapsed;
      if (sentS) {
        const [queued, submitted, failed] = await Promise.all(
          ['queued', 'submitted', 'failed'].map((status) =>
            firstPage(server.base, headers, status),
          ),
        );
        if (failed! > 0) throw new Error('a payout failed');
        if (queued === 0 && submitted === 0) {
          confirmedS = (performance.now() - started) / 1000;
          break;
        }
      }
      if (elapsed > 1800) throw new Error('not all confirmed in 30 minutes');
      await sleep(250);
    }
    const serverCpuS = cpuSeconds(server.process.pid!) - cpuBefore;
    const paying: [number, number] = [startedAt, Date.now()];
    polled = await polling.stop();

    const out = await node.transfersOut();
    const wallets = new Set(cards.map((c) => c.wallet));
    const toSellers = out.filter((t) => wallets.has(t.to));
    if (out.length !== APPROVALS || toSellers.length !== APPROVALS) {
      throw new Error(`${out.length} transfers out (${toSellers.length} to sellers)`);
    }
    if (new Set(toSellers.map((t) => t.to)).size !== APPROVALS) {
      throw new Error('a seller was paid twice');
    }
    if (!toSellers.every((t) => t.value === CARD_UNITS)) throw new Error('a wrong amount');
    console.log(
      `run ${n}: ${APPROVALS} approved in ${fmt(approvedS, 1)} s, all sent at ${fmt(sentS, 1)} s, all confirmed at ${fmt(confirmedS, 1)} s; ${out.length} transfers on chain, one per seller, 91 tokens each; server CPU ${fmt(serverCpuS, 1)} s; ` +
        `polling before: ${pollingLine(polled, [quiet])}; while paying: ${pollingLine(polled, [paying])}`,
    );
    return {
      approvedS,
      sentS,
      confirmedS,
      transfers: out.length,
      serverCpuS,
      polled,
      quiet,
      paying,
    };
  } finally {
    if (!polled) polling.kill();
    clearInterval(miner);
    await server.stop();
    if (fresh) {
      // The ledger's own check, beside nothing: every payout posted and balanced.
      const check = await openDatabase({ databaseUrl: fresh.url });
      const [{ open }] = (
        await check.db.execute<{ open: string }>(
          sql`select count(*)::text as open from disbursements where status <> 'confirmed'`,
        )
      ).rows as [{ open: string }];
      if (open !== '0') console.log(`run ${n}: ${open} payouts not confirmed`);
      await check.close();
      await fresh.drop();
    }
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** How many payouts of a state the first page of GET /api/admin/disbursements lists. */
async function firstPage(base: string, headers: Record<string, string>, status: string) {
  const response = await fetch(`${base}/api/admin/disbursements?status=${status}`, { headers });
  const page = (await response.json()) as { items: unknown[] };
  return page.items.length;
}

/** Each run's polling in one window, side by side. */
const pollingLines = (results: RunResult[], window: 'quiet' | 'paying') =>
  results.map((r) => pollingLine(r.polled, [r[window]])).join('; ');

async function main() {
  const cpus = os.cpus();
  console.log(
    `bench:payouts: ${APPROVALS} approvals with automatic USDT payout, ${CONFIRMATIONS} confirmations, a block every ${BLOCK_MS} ms besides the transfers' own; ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${RUNS} runs`,
  );
  console.log(
    `Machine: ${cpus.length} x ${cpus[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the start; ganache and the approving client in this process`,
  );
  const results: RunResult[] = [];
  for (let n = 1; n <= RUNS; n++) results.push(await run(n));
  console.log('raw node:http hello world (autocannon, 50 connections)...');
  const raw = await rawRequestsPerSecond();
  const confirmed = median(results.map((r) => r.confirmedS));
  console.log(
    `\n| measure (median of ${RUNS}) | value |\n|---|---|\n` +
      `| ${APPROVALS} approvals answered | ${fmt(median(results.map((r) => r.approvedS)), 1)} s |\n` +
      `| all payouts sent (signed, broadcast) | ${fmt(median(results.map((r) => r.sentS)), 1)} s |\n` +
      `| all payouts confirmed | ${fmt(confirmed, 1)} s |\n` +
      `| payouts confirmed per second | ${fmt(APPROVALS / confirmed, 1)} |\n` +
      `| Transfer events on chain (every run) | ${results.map((r) => r.transfers).join(', ')} |\n` +
      `| server CPU until all confirmed | ${fmt(median(results.map((r) => r.serverCpuS)), 1)} s |\n` +
      `| the polling mix (${POLLERS} customers), every run's 10 s before the approvals | ${pollingLines(results, 'quiet')} |\n` +
      `| the same, from the first approval until all confirmed | ${pollingLines(results, 'paying')} |\n` +
      `| raw node:http hello world, same run | ${fmt(raw)} req/s |\n` +
      `| load average at the end (1, 5, 15 min) | ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} |`,
  );
}

await main();
process.exit(0);
