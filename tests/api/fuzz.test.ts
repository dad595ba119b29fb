/**
 * Fuzzing (issue 9): a few thousand malformed requests to every route, as anonymous, customer
 * and staff, must never get a 5xx or go unanswered, and every error must be PRODUCT.md's JSON
 * shape with the security headers. First a deterministic corpus (every JSON field, every list
 * parameter and every kind of broken upload, once each), then random requests from a seeded
 * generator. The seed is fixed so the suite is repeatable; FUZZ_SEED=<n> replays another run,
 * FUZZ_SEED=random explores, FUZZ_REQUESTS=<n> changes the count. `npm run fuzz` sends 100,000
 * (scripts/fuzz.ts). Generators, catalogue and checks: tests/fuzz/.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allows,
  CATALOGUE,
  IDENTITIES,
  routeKey,
  routesToFuzz,
  type World,
} from '../fuzz/catalogue';
import { contractViolations, databaseInvariants, sweepAndCheckStorage } from '../fuzz/invariants';
import { seedFrom } from '../fuzz/rng';
import {
  buildWorld,
  failureReport,
  failuresAsJson,
  routeTable,
  runFuzz,
  runRaw,
  statusTable,
} from '../fuzz/runner';
import { createTestApp, signUp, type TestApp, uploadCardImage } from './helpers';

const SEED = seedFrom(process.env.FUZZ_SEED, 20_261_122);
/**
 * Random requests, after the deterministic corpus (~1,800 more: every field, parameter, upload):
 * 40 per catalogued route, so that each one gets its 20 or more as the catalogue grows.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? Math.max(3_000, CATALOGUE.length * 40));

let t: TestApp;
let world: World;
beforeAll(async () => {
  // Logs at warn, captured in memory: a failing request is printed with its stack.
  t = await createTestApp({ logLevel: 'warn' });
  world = await buildWorld(t);
});
afterAll(() => t.close());

function saveFailures(json: string) {
  const file = path.join(tmpdir(), `cardbridge-fuzz-${SEED}-${Date.now()}.json`);
  writeFileSync(file, json);
  return file;
}

describe('fuzzing every route', () => {
  it('has a catalogue entry for every route the app registers, and none for a route it lacks', () => {
    const { routes, uncatalogued } = routesToFuzz(t.app);
    // A route without an entry would be fuzzed only generically, with no access expectation:
    // a new route must say who may call it and what a valid request is.
    expect(uncatalogued, 'routes missing from tests/fuzz/catalogue.ts').toEqual([]);
    const registered = new Set(routes.map(routeKey));
    expect(CATALOGUE.map(routeKey).filter((k) => !registered.has(k))).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(30);
  });

  it(`answers the corpus and ${REQUESTS} random requests without a 5xx or a hang, each error in PRODUCT.md's shape`, async () => {
    const result = await runFuzz(t, world, {
      seed: SEED,
      requests: REQUESTS,
      big: false,
      // Every answer takes milliseconds; a request still unanswered after 3 s is hung.
      timeoutMs: 3_000,
      concurrency: 1,
      strayShare: 0.05,
      corpus: true,
    });
    console.log(`fuzz seed ${SEED}\n${statusTable(result.stats)}\n${routeTable(result.stats)}`);
    if (result.failures.length > 0) {
      const file = saveFailures(failuresAsJson(result.failures, SEED));
      console.error(`${failureReport(result.failures, SEED)}\n\nevery failing request: ${file}`);
    }
    expect.soft(result.failures.length, failureReport(result.failures, SEED, 5)).toBe(0);

    // The fuzzer did what it claims: every route, as every identity, many times.
    const { routes } = routesToFuzz(t.app);
    for (const spec of routes) {
      const key = `${spec.method} ${spec.path}`;
      const sent = [...(result.stats.byRoute.get(key)?.values() ?? [])].reduce((a, b) => a + b, 0);
      expect.soft(sent, `requests to ${key}`).toBeGreaterThanOrEqual(20);
      // Each allowed identity got past the guards at least once (a valid session was used).
      for (const who of IDENTITIES) {
        if (spec.generic || !allows(spec.access, who)) continue;
        expect.soft(result.stats.reached.has(`${key} as ${who}`), `${key} as ${who}`).toBe(true);
      }
    }
    // Enough got through to do real work, and enough reached validation to be refused there.
    const share = (status: string) => (result.stats.byStatus.get(status) ?? 0) / result.stats.total;
    // 8%: the partner API's and the payout rails' routes (issues 40, 42) are mostly refused to the
    // fuzzer's principals (a key's scope, a rail not configured), so fewer succeed than before.
    expect.soft(share('200') + share('201'), 'share of successful requests').toBeGreaterThan(0.08);
    expect.soft(share('400'), 'share of requests refused with 400').toBeGreaterThan(0.1);
    for (const [note, count] of result.stats.notes) console.warn(`note: ${count} × ${note}`);
    if (result.stats.quietErrors.length > 0) {
      console.warn(
        `${result.stats.quietErrors.length} request(s) logged an error but were not answered 5xx`,
      );
    }
    // 40 requests a route: the run grows with the app (7,320 for 183 routes), and CI runs it
    // beside the other lanes, where it passed 180 s on PostgreSQL.
  }, 480_000);

  it('answers what only a raw socket can send (odd methods, broken framing) in the same shape', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { results, failures } = await runRaw(Number(new URL(address).port), world);
    if (failures.length > 0) console.error(failureReport(failures, SEED));
    expect(failures.length, failureReport(failures, SEED, 5)).toBe(0);
    // Most of these are answered (a truncated body may just be closed).
    expect(results.filter((r) => r.status !== null).length).toBeGreaterThan(results.length / 2);
  }, 120_000);

  it('leaves the database invariants whole, and no file without a row after the sweep', async () => {
    const invariants = await databaseInvariants(t.database);
    const sweep = await sweepAndCheckStorage(
      t.database,
      t.app.storage,
      path.join(t.config.dataDir, 'objects'),
    );
    const all = [...invariants, ...sweep.invariants];
    const broken = all.filter((i) => i.violations > 0);
    expect(broken, JSON.stringify(broken, null, 2)).toEqual([]);
    // The run made data to check: cards, methods, uploads.
    const counts = (
      await t.database.pool.query(
        `select (select count(*) from transactions)::int as transactions,
                (select count(*) from payment_methods where type = 'bank_transfer')::int as banks,
                (select count(*) from uploads)::int as uploads`,
      )
    ).rows[0];
    expect(counts.transactions).toBeGreaterThan(2);
    expect(counts.banks).toBeGreaterThan(2);
    expect(counts.uploads).toBeGreaterThan(0);
  }, 60_000);
});

describe('the checks the fuzzer relies on', () => {
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await createTestApp();
  });
  afterAll(() => fresh.close());

  it('flag a 5xx, a non-JSON error, the framework default shape and missing security headers', () => {
    const secure = {
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'self'",
    };
    const ok = { status: 400, headers: secure, body: '{"message":"Bad","errors":{"a":"Bad"}}' };
    expect(contractViolations(ok)).toEqual([]);
    expect(contractViolations({ ...ok, status: 500, body: '{"message":"x"}' })).toContain(
      '500 answer',
    );
    expect(
      contractViolations({ ...ok, headers: { ...secure, 'content-type': 'text/plain' } }),
    ).toContain('error with content type "text/plain", not JSON');
    // A page's error, to a browser that asked for HTML: right, but still with its headers.
    const page = { ...ok, headers: { ...secure, 'content-type': 'text/html; charset=utf-8' } };
    expect(contractViolations({ ...page, body: '<p>Bad link</p>' }, { page: true })).toEqual([]);
    expect(contractViolations({ ...page, body: '<p>Bad link</p>' })).toContain(
      'error with content type "text/html; charset=utf-8", not JSON',
    );
    expect(
      contractViolations(
        { ...page, headers: { 'content-type': 'text/html' }, body: '<p>Bad</p>' },
        { page: true },
      ),
    ).toContain('error without X-Content-Type-Options: nosniff');
    expect(
      contractViolations({
        ...ok,
        body: '{"statusCode":400,"error":"Bad Request","message":"body must be object"}',
      }),
    ).toEqual(['error body has other keys: statusCode', 'error and message differ']);
    expect(contractViolations({ ...ok, headers: { 'content-type': 'application/json' } })).toEqual([
      'error without X-Content-Type-Options: nosniff',
      'error without a CSP header',
    ]);
    expect(
      contractViolations({ ...ok, body: '{"message":"at f (/work/main/src/x.ts:1:2)"}' }),
    ).toContain('error body shows internals');
    expect(contractViolations({ ...ok, body: '{"errors":{}}' })).toContain(
      'error body has no message',
    );
  });

  it('find a transaction without images, a bank method without its fields, a file without a row', async () => {
    const { pool } = fresh.database;
    const customer = await signUp(fresh.app);
    const image = await uploadCardImage(fresh.app, customer);
    const before = await databaseInvariants(fresh.database);
    expect(before.filter((i) => i.violations > 0)).toEqual([]);

    const [{ id: method }] = (
      await pool.query(
        `insert into payment_methods (user_id, type, account_name, account_number)
         values ($1, 'bank_transfer', 'Casey', '12345678') returning id`,
        [customer.user.id],
      )
    ).rows;
    await pool.query(
      `insert into transactions (user_id, card_type, card_value, card_condition, card_format,
         image_urls, payout_rate, expected_payout, payment_method_id)
       values ($1, 'Amazon', -5, 'brand_new', 'egift', '{}', 0.85, 85, $2)`,
      [customer.user.id, method],
    );
    const after = await databaseInvariants(fresh.database);
    const broken = after.filter((i) => i.violations > 0).map((i) => i.name);
    expect(broken).toEqual(
      expect.arrayContaining([
        'no transaction without images, but an e-code sold with its code (the partner API, issue 42)',
        'no bank_transfer payment method without its bank fields',
        'no money with more than 2 decimals, nor below 0: transactions.card_value',
      ]),
    );

    // A file no row knows, with a name the sweep does not touch; a row whose file is gone.
    const objects = path.join(fresh.config.dataDir, 'objects');
    writeFileSync(path.join(objects, 'cards', 'left-behind.jpg'), 'x');
    rmSync(path.join(objects, image.replace('/objects/', '')));
    await pool.query(`update uploads set transaction_id = (select id from transactions limit 1)`);
    const sweep = await sweepAndCheckStorage(fresh.database, fresh.app.storage, objects);
    expect(sweep.invariants.filter((i) => i.violations > 0).map((i) => i.name)).toEqual([
      'no temporary or oddly named file in storage (after the sweep)',
      'no upload row without its file',
    ]);
  });
});
