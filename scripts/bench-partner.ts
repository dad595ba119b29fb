/**
 * npm run bench:partner (issue 42): the partner API under its two heavy loads, each the median of
 * 3 runs beside a raw node:http floor measured in the same run.
 * - `POST /api/v1/cards/bulk` with 500 e-codes (JSON), each row sold on its own as the single
 *   route sells it; the floor is a node:http server that parses the same body and answers a result
 *   per row without doing anything.
 * - 1,000 webhook deliveries (test events queued through `POST /api/v1/webhook-endpoints/:id/test`
 *   on 5 endpoints, 16 requests at a time) to a local HTTPS receiver: the time from the first
 *   request until the receiver has all 1,000, signed and verified; target ≤ 10 s. The floor is a
 *   node:https client posting 1,000 signed bodies to the same receiver, 16 at a time.
 * - The polling mix unchanged by the deliveries: POLLERS (300) seeded customers poll throughout at
 *   the spec's intervals with their ETags (scripts/lib/poller.mjs, as bench:load --soak does), and
 *   their answers in each run's deliveries are compared with those in the 10 s before them.
 * The seller (level 2, limits raised), its key and its endpoints, and the polling customers (20
 * cards each, signed in by session rows) are written to a fresh embedded database before the
 * built server starts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { generate } from 'selfsigned';
import { Webhook } from 'standardwebhooks';
import { openDatabase } from '../src/server/db/client';
import {
  apiKeys,
  paymentMethods,
  users,
  verificationLimits,
  webhookEndpoints,
} from '../src/server/db/schema';
import { keyringOf, parseDataKey, sealText } from '../src/server/encryption';
import { keyHashOf, newApiKey } from '../src/server/modules/api-keys/keys';
import {
  FIRST_WAVE_MS,
  type Polled,
  pollingLine,
  QUIET_MS,
  seedPollingCustomers,
  startPolling,
} from './lib/polls';
import { startBuiltServer } from './lib/processes';
import { median } from './lib/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ROWS = 500;
const DELIVERIES = 1000;
const ENDPOINTS = 5;
const AT_ONCE = 16;
const TARGET_DELIVERY_S = 10;
const POLLERS = Number(process.env.BENCH_POLLERS ?? 300);
const SESSION_SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Runs `work(i)` for i < count, `width` at a time. */
async function pool(count: number, width: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** The HTTPS receiver: answers 200 and counts what verifies with one of the secrets. */
async function startReceiver(tls: { key: string; cert: string }, secrets: string[]) {
  const hooks = secrets.map((s) => new Webhook(s));
  let verified = 0;
  let failed = 0;
  let waiting: { count: number; resolve: () => void } | null = null;
  const server = https.createServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const ok = hooks.some((hook) => {
        try {
          hook.verify(body, request.headers as Record<string, string>);
          return true;
        } catch {
          return false;
        }
      });
      if (ok) verified += 1;
      else failed += 1;
      response.writeHead(200).end('ok');
      if (waiting && verified >= waiting.count) waiting.resolve();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (p: string) => `https://127.0.0.1:${(server.address() as AddressInfo).port}${p}`,
    reset() {
      verified = 0;
      failed = 0;
    },
    counts: () => ({ verified, failed }),
    until: (count: number, timeoutMs: number) =>
      new Promise<boolean>((resolve) => {
        if (verified >= count) return resolve(true);
        const timer = setTimeout(() => resolve(false), timeoutMs);
        waiting = {
          count,
          resolve: () => {
            clearTimeout(timer);
            waiting = null;
            resolve(true);
          },
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The floor for bulk: parse the body, answer a result per row. */
async function startRawBulk() {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const { cards } = JSON.parse(Buffer.concat(chunks).toString()) as { cards: unknown[] };
      const results = cards.map((_, index) => ({ index, status: 'created', id: randomUUID() }));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const rowsOf = (run: string, methodId: string) =>
  Array.from({ length: ROWS }, (_, i) => ({
    brand: 'Amazon',
    value: '100',
    format: 'egift',
    code: `BENCH-${run}-${String(i).padStart(4, '0')}-${randomBytes(3).toString('hex')}`,
    paymentMethodId: methodId,
    reference: `bench-${run}-${i}`,
  }));

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-partner-'));
  const keyHex = randomBytes(32).toString('hex');
  const keyring = keyringOf(parseDataKey(keyHex)!);
  const tls = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    days: 1,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as never);
  const caFile = path.join(dataDir, 'receiver-ca.pem');
  writeFileSync(caFile, tls.cert);
  const secrets = Array.from(
    { length: ENDPOINTS },
    () => `whsec_${randomBytes(32).toString('base64')}`,
  );
  const receiver = await startReceiver({ key: tls.private, cert: tls.cert }, secrets);

  // The seller, its key and endpoints, written before the server starts.
  console.log(
    `load average at the start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  console.log(`seeding ${POLLERS} polling customers, a level-2 seller, its key and 5 endpoints...`);
  const where = { pgliteDir: path.join(dataDir, 'db') };
  const cookies = await seedPollingCustomers(where, POLLERS, SESSION_SECRET, {
    email: 'bench-staff@example.com',
    password: 'bench staff password',
  });
  const apiKey = newApiKey();
  const database = await openDatabase(where);
  await database.migrate();
  const db = database.db;
  const [seller] = await db
    .insert(users)
    .values({
      email: 'partner@bench.example',
      password: 'x',
      firstName: 'Bench',
      lastName: 'Partner',
      verificationLevel: 2,
      emailVerifiedAt: new Date(),
    })
    .returning({ id: users.id });
  const [method] = await db
    .insert(paymentMethods)
    .values({
      userId: seller!.id,
      type: 'paypal',
      accountName: 'Bench Partner',
      identifier: 'partner@bench.example',
      isDefault: true,
    })
    .returning({ id: paymentMethods.id });
  // Room for 3 × 500 cards of $100 in a day.
  await db
    .update(verificationLimits)
    .set({ perCard: '10000.00', perDay: '99999999.00', per30Days: '99999999.00' })
    .where(eq(verificationLimits.level, 2));
  await db.insert(apiKeys).values({
    userId: seller!.id,
    name: 'Bench',
    keyHash: keyHashOf(apiKey),
    last4: apiKey.slice(-4),
    scopes: ['cards:read', 'cards:write', 'balance:read', 'webhooks:manage'],
  });
  const endpointIds: string[] = [];
  for (const [i, secret] of secrets.entries()) {
    const [row] = await db
      .insert(webhookEndpoints)
      .values({
        userId: seller!.id,
        url: receiver.url(`/hooks/${i}`),
        events: ['card.updated'],
        secret: sealText(keyring, 'webhook.secret', secret),
      })
      .returning({ id: webhookEndpoints.id });
    endpointIds.push(row!.id);
  }
  await database.close();

  const server = await startBuiltServer({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    SESSION_SECRET,
    DATA_ENCRYPTION_KEY: keyHex,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CA_FILE: caFile,
    LIMIT_API_KEY_REQUESTS_PER_MINUTE: '1000000',
  });
  const raw = await startRawBulk();
  const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const bulk: { app: number[]; raw: number[] } = { app: [], raw: [] };
  const hooks: { app: number[]; queued: number[]; raw: number[] } = {
    app: [],
    queued: [],
    raw: [],
  };
  const windows: Record<'quiet' | 'deliveries', [number, number][]> = {
    quiet: [],
    deliveries: [],
  };
  let polling: ReturnType<typeof startPolling> | undefined;
  let polled: Polled | undefined;
  try {
    // A warm-up: one card, one delivery.
    await fetch(`${server.base}/api/v1/cards/bulk`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ cards: rowsOf('warm', method!.id).slice(0, 1) }),
    });
    polling = startPolling(server.base, cookies);
    await sleep(FIRST_WAVE_MS);
    for (let run = 1; run <= RUNS; run++) {
      // Bulk: 500 e-codes.
      const body = JSON.stringify({ cards: rowsOf(String(run), method!.id) });
      let started = performance.now();
      const answer = await fetch(`${server.base}/api/v1/cards/bulk`, {
        method: 'POST',
        headers: auth,
        body,
      });
      const { results } = (await answer.json()) as { results: { status: string }[] };
      bulk.app.push(performance.now() - started);
      const created = results.filter((r) => r.status === 'created').length;
      if (answer.status !== 200 || created !== ROWS) {
        throw new Error(`bulk run ${run}: ${answer.status}, ${created} of ${ROWS} created`);
      }
      started = performance.now();
      const rawAnswer = await fetch(`${raw.base}/bulk`, { method: 'POST', body });
      await rawAnswer.json();
      bulk.raw.push(performance.now() - started);

      // The polling before the deliveries, then during them.
      const quietFrom = Date.now();
      await sleep(QUIET_MS);
      windows.quiet.push([quietFrom, Date.now()]);

      // Webhooks: 1,000 test events through the API, delivered to the receiver.
      receiver.reset();
      const deliveriesFrom = Date.now();
      started = performance.now();
      await pool(DELIVERIES, AT_ONCE, async (i) => {
        const queued = await fetch(
          `${server.base}/api/v1/webhook-endpoints/${endpointIds[i % ENDPOINTS]}/test`,
          { method: 'POST', headers: { authorization: auth.authorization } },
        );
        if (queued.status !== 202) throw new Error(`test event: ${queued.status}`);
        await queued.arrayBuffer();
      });
      hooks.queued.push(performance.now() - started);
      const all = await receiver.until(DELIVERIES, 60_000);
      hooks.app.push(performance.now() - started);
      windows.deliveries.push([deliveriesFrom, Date.now()]);
      if (!all) throw new Error(`deliveries run ${run}: ${JSON.stringify(receiver.counts())}`);
      if (receiver.counts().failed > 0) throw new Error('a delivery did not verify');

      // The floor: the same number of signed bodies posted straight to the receiver.
      receiver.reset();
      const agent = new https.Agent({ keepAlive: true, ca: tls.cert, maxSockets: AT_ONCE });
      started = performance.now();
      await pool(DELIVERIES, AT_ONCE, async (i) => {
        const payload = JSON.stringify({
          id: `evt_${i}`,
          type: 'webhook.test',
          timestamp: new Date().toISOString(),
          data: { test: true },
        });
        const id = `msg_${randomUUID().replaceAll('-', '')}`;
        const signature = new Webhook(secrets[i % ENDPOINTS]!).sign(id, new Date(), payload);
        await new Promise<void>((resolve, reject) => {
          const request = https.request(
            receiver.url(`/hooks/${i % ENDPOINTS}`),
            {
              method: 'POST',
              agent,
              headers: {
                'content-type': 'application/json',
                'webhook-id': id,
                'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
                'webhook-signature': signature,
              },
            },
            (response) => {
              response.resume();
              response.on('end', resolve);
            },
          );
          request.on('error', reject);
          request.end(payload);
        });
      });
      await receiver.until(DELIVERIES, 60_000);
      hooks.raw.push(performance.now() - started);
      agent.destroy();
      console.log(
        `run ${run}: bulk ${seconds(bulk.app.at(-1)!)} (raw ${seconds(bulk.raw.at(-1)!)}); ` +
          `1,000 deliveries ${seconds(hooks.app.at(-1)!)} (queued in ${seconds(hooks.queued.at(-1)!)}, ` +
          `the last received ${seconds(hooks.app.at(-1)! - hooks.queued.at(-1)!)} after the last was queued; ` +
          `raw ${seconds(hooks.raw.at(-1)!)})`,
      );
    }
    polled = await polling.stop();
  } finally {
    if (!polled) polling?.kill();
    await server.stop();
    await raw.close();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const deliveries = median(hooks.app);
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  console.log(`\nmedians of ${RUNS}:`);
  console.log(
    `  POST /api/v1/cards/bulk, ${ROWS} e-codes: ${seconds(median(bulk.app))} ` +
      `(${Math.round(ROWS / (median(bulk.app) / 1000))} rows/s); raw node:http ${seconds(median(bulk.raw))}`,
  );
  console.log(
    `  ${DELIVERIES} webhook deliveries, first request to last received: ${seconds(deliveries)} ` +
      `(queued in ${seconds(median(hooks.queued))}, the last received ` +
      `${seconds(median(hooks.app.map((t, i) => t - hooks.queued[i]!)))} after the last was queued); ` +
      `raw node:https ${seconds(median(hooks.raw))}; ` +
      `target ≤ ${TARGET_DELIVERY_S} s: ${deliveries <= TARGET_DELIVERY_S * 1000 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `  the polling mix (${POLLERS} customers at the spec's intervals), over the ${RUNS} runs: ` +
      `in the ${QUIET_MS / 1000} s before the deliveries ${pollingLine(polled!, windows.quiet)}; ` +
      `during them ${pollingLine(polled!, windows.deliveries)}; ` +
      `${polled!.networkErrors} network errors, the generator busy ${(polled!.busy * 100).toFixed(0)}%`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
