/**
 * Issue 41's "paid in minutes" line, a section of `npm run bench` (run alone: `npm run
 * bench:instant`): an eligible card goes from submission to confirmed on chain without a person.
 *
 * The local chain of the tests (tests/lib/evm-chain.ts: ganache on 127.0.0.1, OpenZeppelin's
 * ERC-20, a funded hot wallet) with 1 confirmation, and the built server (dist/server/main.js,
 * NODE_ENV=production, rebuilt first) on a fresh PGlite folder with the USDT rail configured. The
 * database is seeded with CARDS trusted sellers, each a month old, at verification level 2, with
 * 10 completed cards 40 days old and a USDT BEP-20 wallet of their own (a fresh address) saved 30
 * days ago, so the production payout holds (24 h for a new method, 48 h for a new account) stay
 * on and do not apply. Over HTTP, the owner turns instant decisions on (the production policy's
 * thresholds, Amazon listed, nothing sampled, a daily total with room for every card) and
 * automatic payout on for the rail; then each seller submits one $100 Amazon e-code as the web
 * app does (its photo uploaded through the multipart route, then POST /api/transactions), one
 * after another, GAP_MS (0.5 s) apart. Each card is timed from the start of its upload until its
 * seller's card list says Payment Confirmed; the server's own workers do everything in between.
 * Then the chain is read: one Transfer to each seller, of what their card says was paid, and no
 * other.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { type Hex, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hashPassword, upsertAdmin } from '../../src/server/common/accounts';
import { openDatabase } from '../../src/server/db/client';
import { type BrandRate, rateFor } from '../../src/shared/rates';
import { startEvmNode, TOKEN } from '../../tests/lib/evm-chain';
import { noiseImage } from '../../tests/lib/noise-image';
import { cpuSeconds, startBuiltServer } from './processes';
import { measureRawCeiling, rawCeilingLine } from './raw-ceiling';
import { signInStaffOverHttp } from './staff-sign-in';
import { median } from './stats';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** Cards submitted, one per seller (a seller's cards queued together would be one payout). */
const CARDS = env('BENCH_INSTANT_CARDS', 20);
const CONFIRMATIONS = 1;
const TARGET_S = 60;
/**
 * The pause between one card's answer and the next card's upload: 0.5 s spreads the 20 arrivals
 * over about two of the payouts worker's 5 s ticks, so they fall at every point of its cycle
 * (back to back, all 20 arrive within one tick and share one wait).
 */
const GAP_MS = env('BENCH_INSTANT_GAP_MS', 500);
/** How often each waiting card's seller asks for their cards, as a timer's resolution. */
const POLL_MS = env('BENCH_INSTANT_POLL_MS', 250);
/** A card not confirmed this long after its upload started fails the section. */
const GIVE_UP_S = env('BENCH_INSTANT_GIVE_UP_S', 300);
/** After the last confirmation, the chain is read once more than a payouts tick (5 s) later. */
const SETTLE_MS = 6_000;
const RAW_SECONDS = env('BENCH_INSTANT_RAW_SECONDS', 5);
const OWNER = { email: 'bench-owner@example.com', password: 'bench owner password' };
const SELLER_PASSWORD = 'bench seller password';
const CARD = { cardType: 'Amazon', cardValue: '100', cardCondition: 'brand_new', format: 'egift' };
/** The owner's policy: the production thresholds, one brand, none sampled. */
const POLICY = {
  enabled: true,
  minLevel: 2,
  minCompletedCards: 10,
  maxCardValue: '200.00',
  maxDailyTotal: '2500.00',
  brands: ['Amazon'],
  sampleRate: 0,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (from: number, to: number) => (to - from) / 1000;
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * A card photo of a phone's proportions: 1600 × 1200, JPEG, drawn from noiseImage's seed (its
 * 96 × 64 noise scaled up). Each seed gives another picture: these seeds' difference hashes are
 * 14 or more bits apart (the look-alike check flags 10 or fewer), so no check flags a copy.
 */
const photo = async (i: number) =>
  sharp(await noiseImage(777_000 + i * 7919))
    .resize(1600, 1200)
    .jpeg({ quality: 92 })
    .toBuffer();

interface Seller {
  email: string;
  wallet: Hex;
  methodId: string;
}

/** The trusted sellers, written to the fresh database before the server starts. */
async function seed(pgliteDir: string): Promise<Seller[]> {
  const database = await openDatabase({ pgliteDir });
  await database.migrate();
  const db = database.db;
  const hash = await hashPassword(SELLER_PASSWORD, 4);
  const wallets = Array.from(
    { length: CARDS },
    () => privateKeyToAccount(generatePrivateKey()).address,
  );
  const rows = await db.execute<{ email: string; method_id: string; identifier: Hex }>(sql`
    with sellers as (
      insert into users (email, password, first_name, last_name, verification_level,
                         email_verified_at, created_at, updated_at)
      select 'instant' || g || '@bench.example', ${hash}, 'Trusted', 'Seller' || g, 2,
             now() - interval '30 days', now() - interval '30 days', now() - interval '30 days'
      from generate_series(1, ${CARDS}) g
      returning id, email, last_name
    ), methods as (
      insert into payment_methods (user_id, type, account_name, identifier, is_default,
                                   created_at, payee_changed_at)
      select s.id, 'usdt_bep20', 'My wallet',
             (string_to_array(${wallets.join(',')}, ','))[substring(s.last_name from 7)::int],
             true, now() - interval '30 days', now() - interval '30 days'
      from sellers s
      returning id, user_id, identifier
    )
    select s.email, m.id as method_id, m.identifier
    from methods m join sellers s on s.id = m.user_id`);
  // Their record: 10 completed cards each, 40 days ago, paid to the same wallet (before this
  // chain existed), then the books opened from the cards as migration 0026 opens them.
  await db.execute(sql`
    insert into transactions (user_id, card_type, card_value, card_condition, card_format,
                              image_urls, status, validation_status, payment_status,
                              payment_method_id, payout_rate, expected_payout, payment_amount,
                              first_decision_at, paid_at, created_at, updated_at)
    select m.user_id, 'Amazon', 50.00, 'brand_new', 'egift', '{}', 'completed', 'passed',
           'confirmed', m.id, 0.9100, 45.50, 45.50,
           now() - interval '40 days' + k * interval '1 hour',
           now() - interval '40 days' + k * interval '2 hours',
           now() - interval '41 days' + k * interval '1 hour', now() - interval '40 days'
    from payment_methods m cross join generate_series(1, 10) k`);
  await db.execute(sql`select ledger_open_books()`);
  await upsertAdmin(db, OWNER, 4);
  await database.close();
  return rows.rows
    .map((r) => ({ email: r.email, wallet: r.identifier, methodId: r.method_id }))
    .sort((a, b) => a.email.localeCompare(b.email, 'en', { numeric: true }));
}

/** Builds dist/server from this tree, so the server measured is the code checked out. */
function buildServer() {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('node scripts/build-server.mjs failed');
}

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('cb.sid='));

interface CardTiming {
  seller: Seller;
  cookie: string;
  id: string;
  started: number;
  answered: number;
  sent?: number;
  confirmed?: number;
  paymentAmount?: string;
}

export interface InstantOnchainResult {
  ok: boolean;
  medianS: number;
}

/** Runs the section and prints it; ok when every card was paid once and the median < 60 s. */
export async function benchInstantOnchain(): Promise<InstantOnchainResult> {
  console.log(
    `\nIssue 41, paid in minutes: ${CARDS} eligible cards from submission to confirmed on chain (${CONFIRMATIONS} confirmation), no person`,
  );
  const loadAtStart = load();
  console.log('Building the server (node scripts/build-server.mjs)...');
  buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-instant-'));
  const node = await startEvmNode(BigInt(CARDS) * 200n * TOKEN);
  let server: Awaited<ReturnType<typeof startBuiltServer>> | undefined;
  let stopPolling = false;
  try {
    const sellers = await seed(path.join(dataDir, 'db'));
    const photos = await Promise.all(sellers.map((_, i) => photo(i)));
    server = await startBuiltServer({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      ...node.env(CONFIRMATIONS),
    });
    const base = server.base;
    const json = { 'content-type': 'application/json', origin: base };

    // The owner's policy and finance's switch, as the admin portal sets them.
    const staff = await signInStaffOverHttp(base, OWNER);
    const asOwner = { ...json, cookie: staff.cookie };
    const policy = await fetch(`${base}/api/admin/instant-decisions`, {
      method: 'PUT',
      headers: asOwner,
      body: JSON.stringify(POLICY),
    });
    if (policy.status !== 200) throw new Error(`policy: ${policy.status} ${await policy.text()}`);
    const rail = await fetch(`${base}/api/admin/payout-rails/usdt_bep20`, {
      method: 'PUT',
      headers: asOwner,
      body: JSON.stringify({ autoPayout: true }),
    });
    if (rail.status !== 200) throw new Error(`rail: ${rail.status} ${await rail.text()}`);
    console.log(
      `Policy (set by the owner over HTTP): on, verification level >= ${POLICY.minLevel}, >= ${POLICY.minCompletedCards} completed cards, card value <= $${POLICY.maxCardValue}, instant total <= $${POLICY.maxDailyTotal} a seller a day, brands ${POLICY.brands.join(', ')}, sample rate ${POLICY.sampleRate}; automatic payout on for usdt_bep20; payout holds at their production defaults (24 h new method, 48 h new account)`,
    );
    console.log(
      `Sellers: ${CARDS}, each at level 2, a month old, 10 completed cards 40 days ago, a fresh BEP-20 address saved 30 days ago; one $${CARD.cardValue} ${CARD.cardType} e-code each, a 1600 × 1200 JPEG photo each (${fmt(photos.reduce((s, p) => s + p.length, 0) / photos.length / 1024, 0)} KB on average), submitted one after another, ${GAP_MS} ms from one's answer to the next upload`,
    );

    // Each seller signs in (before the clock starts), as the web app's sign-in form does.
    const cookies: string[] = [];
    for (const seller of sellers) {
      const response = await fetch(`${base}/api/signin`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: seller.email, password: SELLER_PASSWORD }),
      });
      const cookie = cookieOf(response);
      if (response.status !== 200 || !cookie) {
        throw new Error(`seller sign-in: ${response.status} ${await response.text()}`);
      }
      cookies.push(cookie);
    }
    const rates = (await (await fetch(`${base}/api/rates`)).json()) as BrandRate[];
    const terms = rates.find((r) => r.brand === CARD.cardType);
    if (!terms) throw new Error(`no rate for ${CARD.cardType}`);
    const quotedRate = rateFor(terms, CARD.format, CARD.cardValue);

    const cards: CardTiming[] = [];
    const cpuBefore = cpuSeconds(server.process.pid!);
    const clock = performance.now();
    // The sellers' pages ask for their cards: each waiting card's seller every POLL_MS.
    const polling = (async () => {
      while (!stopPolling) {
        const waiting = cards.filter((c) => c.confirmed === undefined);
        await Promise.all(
          waiting.map(async (card) => {
            const response = await fetch(`${base}/api/transactions`, {
              headers: { cookie: card.cookie },
            });
            if (response.status !== 200) throw new Error(`card list: ${response.status}`);
            const now = performance.now();
            const list = (await response.json()) as {
              id: string;
              paymentStatus: string;
              paymentAmount: string | null;
            }[];
            const row = list.find((r) => r.id === card.id);
            if (!row) throw new Error(`card ${card.id} is not in its seller's list`);
            if (row.paymentStatus === 'sent') card.sent ??= now;
            if (row.paymentStatus === 'confirmed') {
              card.sent ??= now;
              card.confirmed = now;
              card.paymentAmount = row.paymentAmount ?? undefined;
            }
            if (card.confirmed === undefined && seconds(card.started, now) > GIVE_UP_S) {
              throw new Error(
                `card ${card.id} not confirmed ${GIVE_UP_S} s after its upload started (payment ${row.paymentStatus})`,
              );
            }
          }),
        );
        if (cards.length === CARDS && cards.every((c) => c.confirmed !== undefined)) return;
        await sleep(POLL_MS);
      }
    })();
    polling.catch(() => {});

    for (const [i, seller] of sellers.entries()) {
      const cookie = cookies[i]!;
      const started = performance.now();
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(photos[i]!)], { type: 'image/jpeg' }),
        'card.jpg',
      );
      const upload = await fetch(`${base}/api/upload-card-image`, {
        method: 'POST',
        headers: { cookie, origin: base },
        body: form,
      });
      if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
      const { objectPath } = (await upload.json()) as { objectPath: string };
      const submitted = await fetch(`${base}/api/transactions`, {
        method: 'POST',
        headers: { ...json, cookie },
        body: JSON.stringify({
          cardType: CARD.cardType,
          cardValue: CARD.cardValue,
          cardCondition: CARD.cardCondition,
          cardFormat: CARD.format,
          paymentMethodId: seller.methodId,
          notes: null,
          cardCode: null,
          imageUrls: [objectPath],
          quotedRate,
          scamCheck: 'no',
        }),
      });
      if (submitted.status !== 201) {
        throw new Error(`submission: ${submitted.status} ${await submitted.text()}`);
      }
      const card = (await submitted.json()) as { id: string; decidedBy: string | null };
      if (card.decidedBy !== 'auto') {
        const detail = await fetch(`${base}/api/admin/transactions/${card.id}`, {
          headers: asOwner,
        });
        const why = ((await detail.json()) as { instantDecision?: { refusedBecause?: string[] } })
          .instantDecision?.refusedBecause;
        throw new Error(
          `card ${i + 1} was not decided at once: it waits for a person (${why?.join(', ') ?? 'no reason given'})`,
        );
      }
      cards.push({ seller, cookie, id: card.id, started, answered: performance.now() });
      if (i < sellers.length - 1) await sleep(GAP_MS);
    }
    await polling;
    const lastConfirmed = Math.max(...cards.map((c) => c.confirmed!));
    const serverCpu = cpuSeconds(server.process.pid!) - cpuBefore;

    // The chain, a payouts tick after the last confirmation: one Transfer to each seller, of what
    // the card says it paid, and none other out of the hot wallet.
    await sleep(SETTLE_MS);
    const problems: string[] = [];
    for (const card of cards) {
      const paid = parseUnits(card.paymentAmount ?? '0', 18);
      const transfers = await node.transfersTo(card.seller.wallet);
      const balance = await node.balanceOf(card.seller.wallet);
      if (transfers.length !== 1) {
        problems.push(`${card.seller.wallet} received ${transfers.length} transfers for 1 card`);
      } else if (transfers[0]!.value !== paid || balance !== paid) {
        problems.push(
          `${card.seller.wallet}: transfer ${transfers[0]!.value}, balance ${balance}, card paid ${paid}`,
        );
      }
    }
    const out = await node.transfersOut();
    if (out.length !== CARDS) problems.push(`${out.length} transfers out of the hot wallet`);
    for (const status of ['queued', 'submitted', 'failed']) {
      const response = await fetch(`${base}/api/admin/disbursements?status=${status}`, {
        headers: asOwner,
      });
      const { items } = (await response.json()) as { items: unknown[] };
      if (items.length > 0) problems.push(`${items.length} payouts ${status}`);
    }
    const alerts = server
      .output()
      .split('\n')
      .filter((l) => /payouts worker failed|"alert"/.test(l));
    if (alerts.length > 0) problems.push(`the server logged: ${alerts.slice(0, 3).join(' | ')}`);

    const total = cards.map((c) => seconds(c.started, c.confirmed!));
    const answer = cards.map((c) => seconds(c.started, c.answered));
    const toSent = cards.map((c) => seconds(c.answered, c.sent!));
    const sentToConfirmed = cards.map((c) => seconds(c.sent!, c.confirmed!));
    console.log(
      'card  submitted (201)  Payment Sent seen  Payment Confirmed seen   (s from its upload)',
    );
    for (const [i, c] of cards.entries()) {
      console.log(
        `${String(i + 1).padStart(4)}  ${fmt(seconds(c.started, c.answered), 2).padStart(15)}  ${fmt(seconds(c.started, c.sent!), 2).padStart(17)}  ${fmt(seconds(c.started, c.confirmed!), 2).padStart(22)}`,
      );
    }
    const medianS = median(total);
    console.log(
      `\nSubmission to Payment Confirmed over ${CARDS} cards: median ${fmt(medianS, 2)} s, min ${fmt(Math.min(...total), 2)} s, max ${fmt(Math.max(...total), 2)} s (target: median under ${TARGET_S} s)`,
    );
    console.log(
      `  of which: upload + submission answered ${fmt(median(answer), 2)} s (median), answered to Payment Sent seen ${fmt(median(toSent), 2)} s, Sent to Confirmed seen ${fmt(median(sentToConfirmed), 2)} s; polled every ${POLL_MS} ms; the server's payouts worker ticks every 5 s and nothing kicks it`,
    );
    console.log(
      `  all ${CARDS} submitted in ${fmt(seconds(clock, Math.max(...cards.map((c) => c.answered))))} s, all confirmed at ${fmt(seconds(clock, lastConfirmed))} s; server CPU meanwhile ${fmt(serverCpu)} s`,
    );
    console.log(
      problems.length === 0
        ? `  on chain: ${out.length} Transfers out of the hot wallet, exactly one to each seller's address, each what the card says it paid (${cards[0]!.paymentAmount} tokens); no payout queued, submitted or failed`
        : `  PAID WRONG: ${problems.join('; ')}`,
    );
    // The machine, in the same run (the server stopped first, so it has the cores to itself).
    await server.stop();
    server = undefined;
    const raw = await measureRawCeiling(RAW_SECONDS);
    console.log(`  ${rawCeilingLine(raw)} (${RAW_SECONDS} s, 50 connections)`);
    console.log(`  load average (1, 5, 15 min): ${loadAtStart} at the start, ${load()} at the end`);
    const ok = problems.length === 0 && medianS < TARGET_S;
    console.log(
      ok
        ? `  OK: median ${fmt(medianS, 2)} s < ${TARGET_S} s, each card paid once`
        : `  FAIL: ${problems.length > 0 ? 'a card was not paid exactly once' : `median ${fmt(medianS, 2)} s >= ${TARGET_S} s`}`,
    );
    return { ok, medianS };
  } finally {
    stopPolling = true;
    await server?.stop();
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
