import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStaffOverHttp } from '../../scripts/lib/staff-sign-in';
import { upsertAdmin } from '../../src/server/common/accounts';
import { type Database, openDatabase } from '../../src/server/db/client';
import { admins, disbursementCards, disbursements, jobRuns } from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/modules/ledger';
import { type MailServer, startMailServer } from '../api/mail-server';
import {
  CARD_UNITS,
  type EvmNode,
  seedUsdtSellers,
  startEvmNode,
  startRpcProxy,
  TOKEN,
} from './chain';
import { type Cluster, call, type Instance, STAFF, startCluster } from './cluster';

/**
 * The USDT rail on two built instances on one PostgreSQL (issue 40), automatic payout on, paying
 * on a local chain (ganache) through an RPC proxy the tests can take down: the node down and the
 * hot wallet short make payouts wait with one alert mailed to finance (decision 153), and 200
 * approvals at once give exactly 200 transfers.
 */
const CONFIRMATIONS = 2;
const FINANCE = { email: 'cluster.finance@example.com', password: 'cluster finance password' };
const REVIEWER = { email: 'cluster.reviewer@example.com', password: 'cluster reviewer password' };

let node: EvmNode;
let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
let mail: MailServer;
let cluster: Cluster;
let a: Instance;
let b: Instance;
let database: Database;
const cookies = new Map<string, string>();

beforeAll(async () => {
  node = await startEvmNode(1_000n * TOKEN);
  proxy = await startRpcProxy(node.url);
  mail = await startMailServer();
  cluster = await startCluster(2, {
    ...node.env(CONFIRMATIONS, proxy.url),
    SMTP_URL: mail.url,
    APP_URL: 'http://cardbridge.test',
  });
  [a, b] = cluster.instances as [Instance, Instance];
  database = await openDatabase({ databaseUrl: cluster.databaseUrl });
  for (const [who, role] of [
    [FINANCE, 'finance'],
    [REVIEWER, 'reviewer'],
  ] as const) {
    await upsertAdmin(database.db, who, 4);
    await database.db.update(admins).set({ role }).where(eq(admins.email, who.email));
  }
  for (const instance of [a, b]) {
    cookies.set(instance.base, (await signInStaffOverHttp(instance.base, STAFF)).cookie);
  }
  const on = await call(a.base, cookies.get(a.base)!, 'PUT', '/api/admin/payout-rails/usdt_bep20', {
    autoPayout: true,
  });
  expect(on.status).toBe(200);
}, 240_000);

afterAll(async () => {
  await database?.close();
  await cluster?.stop();
  await proxy?.stop();
  await node?.stop();
  await mail?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Card = Awaited<ReturnType<typeof seedUsdtSellers>>[number];

/** Approves every card at once, alternately through each instance's staff API. */
async function approveAll(cards: Card[]) {
  const answers = await Promise.all(
    cards.map((card, i) => {
      const base = (i % 2 === 0 ? a : b).base;
      return call(base, cookies.get(base)!, 'PATCH', `/api/admin/transactions/${card.id}`, {
        status: 'completed',
        expectedUpdatedAt: card.updatedAt,
      });
    }),
  );
  expect(answers.map((r) => r.status)).toEqual(cards.map(() => 200));
}

const payoutsOf = (cards: Card[]) =>
  database.db
    .select({ payout: disbursements })
    .from(disbursementCards)
    .innerJoin(disbursements, eq(disbursements.id, disbursementCards.disbursementId))
    .where(
      inArray(
        disbursementCards.transactionId,
        cards.map((c) => c.id),
      ),
    )
    .then((rows) => rows.map((r) => r.payout));

/** Mines a block now and then until every card's payout is confirmed. */
async function untilConfirmed(cards: Card[]) {
  for (;;) {
    const payouts = await payoutsOf(cards);
    if (payouts.length === cards.length && payouts.every((p) => p.status === 'confirmed')) {
      return payouts;
    }
    expect(payouts.filter((p) => p.status === 'failed')).toEqual([]);
    await node.mine(1);
    await sleep(500);
  }
}

/** The transfers out of the hot wallet to these cards' wallets, by wallet. */
async function transfersTo(cards: Card[]) {
  const wallets = new Set(cards.map((c) => c.wallet));
  return (await node.transfersOut()).filter((t) => wallets.has(t.to));
}

const logLines = (pattern: RegExp) =>
  [a, b].flatMap((i) => i.output().split('\n')).filter((line) => pattern.test(line));

const alertsTo = (email: string, subject: RegExp) =>
  mail.to(email).filter((m) => subject.test(m.subject));

describe('USDT payouts on two instances (built servers, PostgreSQL, ganache)', () => {
  it('wait while the node is down, with one alert and no error loop, and go out when it is back', async () => {
    proxy.setDown(true);
    const cards = await seedUsdtSellers(database.db, 3, 'rpc');
    await approveAll(cards);
    // Long enough for every instance to pass several times (a pass every 5 s each).
    const downFor = 20_000;
    await sleep(downFor);
    const payouts = await payoutsOf(cards);
    expect(payouts.map((p) => p.status)).toEqual(['queued', 'queued', 'queued']);
    expect(payouts.map((p) => p.attempts)).toEqual([0, 0, 0]);
    expect(await transfersTo(cards)).toEqual([]);

    // One alert across both instances: one log line and one email to each who pays.
    const subject = /USDT payouts wait, the chain's node does not answer/;
    await mail.waitFor(FINANCE.email, subject, 15_000);
    await mail.waitFor(STAFF.email, subject, 15_000);
    expect(logLines(/node does not answer/)).toHaveLength(1);
    expect(logLines(/payouts worker failed/)).toEqual([]);
    // No error loop: about one question per pass and instance while down.
    const passes = 2 * (downFor / 5000 + 2);
    expect(proxy.refused).toBeGreaterThan(0);
    expect(proxy.refused).toBeLessThanOrEqual(passes);

    proxy.setDown(false);
    const confirmed = await untilConfirmed(cards);
    const transfers = await transfersTo(cards);
    expect(transfers).toHaveLength(3);
    expect(transfers.every((t) => t.value === CARD_UNITS)).toBe(true);
    expect(new Set(transfers.map((t) => t.hash))).toEqual(
      new Set(confirmed.map((p) => p.chainTxHash)),
    );
    expect(alertsTo(FINANCE.email, subject)).toHaveLength(1);
    expect(alertsTo(STAFF.email, subject)).toHaveLength(1);
    expect(mail.to(REVIEWER.email)).toEqual([]);
    expect(logLines(/node does not answer/)).toHaveLength(1);
    // The outage is over: the next one is told again.
    const standing = await database.db
      .select()
      .from(jobRuns)
      .where(sql`${jobRuns.name} like 'payout-alert:%'`);
    expect(standing).toEqual([]);
  }, 180_000);

  it('wait while the hot wallet is short, with one alert, and go out once it is funded', async () => {
    // 1,000 tokens less the three payouts of 91 leaves 727: seven of ten go out, three wait.
    expect(await node.balanceOf(node.hot)).toBe(727n * TOKEN);
    const cards = await seedUsdtSellers(database.db, 10, 'short');
    await approveAll(cards);
    const subject = /USDT payouts wait, the hot wallet is short/;
    await mail.waitFor(FINANCE.email, subject, 30_000);
    await mail.waitFor(STAFF.email, subject, 15_000);
    // More passes of both instances: still waiting, still one alert.
    await sleep(15_000);
    const payouts = await payoutsOf(cards);
    const waiting = payouts.filter((p) => p.status === 'queued');
    expect(waiting).toHaveLength(3);
    expect(waiting.every((p) => p.lastError?.includes('short of token or gas'))).toBe(true);
    expect(payouts.filter((p) => p.status === 'failed')).toEqual([]);
    expect(await transfersTo(cards)).toHaveLength(7);
    expect(alertsTo(FINANCE.email, subject)).toHaveLength(1);
    expect(alertsTo(STAFF.email, subject)).toHaveLength(1);
    expect(logLines(/hot wallet is short/)).toHaveLength(1);

    await node.fundHotWallet(1_000n * TOKEN);
    await untilConfirmed(cards);
    const transfers = await transfersTo(cards);
    expect(transfers).toHaveLength(10);
    expect(new Set(transfers.map((t) => t.to)).size).toBe(10);
    expect(alertsTo(FINANCE.email, subject)).toHaveLength(1);
    expect(mail.to(REVIEWER.email)).toEqual([]);
  }, 240_000);

  it('200 approvals at once give exactly 200 transfers', async () => {
    await node.fundHotWallet(200n * 91n * TOKEN);
    const cards = await seedUsdtSellers(database.db, 200, 'two-hundred');
    await approveAll(cards);
    const confirmed = await untilConfirmed(cards);
    expect(new Set(confirmed.map((p) => p.id)).size).toBe(200);
    const transfers = await transfersTo(cards);
    expect(transfers).toHaveLength(200);
    // Each seller paid once, exactly what was owed, by the transaction its payout stored.
    expect(new Set(transfers.map((t) => t.to)).size).toBe(200);
    expect(transfers.every((t) => t.value === CARD_UNITS)).toBe(true);
    for (const card of cards) expect(await node.balanceOf(card.wallet)).toBe(CARD_UNITS);
    expect(new Set(transfers.map((t) => t.hash))).toEqual(
      new Set(confirmed.map((p) => p.chainTxHash)),
    );
    // Every transfer of the whole run belongs to one payout, and each payout has one.
    const all = await database.db
      .select({ hash: disbursements.chainTxHash })
      .from(disbursements)
      .where(and(eq(disbursements.rail, 'usdt_bep20'), eq(disbursements.status, 'confirmed')));
    const out = await node.transfersOut();
    expect(out).toHaveLength(all.length);
    expect(new Set(out.map((t) => t.hash))).toEqual(new Set(all.map((r) => r.hash)));
    expect(await checkLedger(database.db)).toEqual([]);
  }, 600_000);
});
