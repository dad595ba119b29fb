import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../scripts/lib/postgres';
import { type BuiltServer, startBuiltServer } from '../../scripts/lib/processes';
import { signInStaffOverHttp } from '../../scripts/lib/staff-sign-in';
import { upsertAdmin } from '../../src/server/common/accounts';
import type { PayoutFaultPoint } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { disbursementCards, disbursements, transactions } from '../../src/server/db/schema';
import { CARD_UNITS, type EvmNode, seedUsdtSellers, startEvmNode, TOKEN } from './chain';
import { call, STAFF } from './cluster';

/**
 * The USDT rail under faults (issue 40, decisions 123 and 152): the BUILT server, a child process
 * on PostgreSQL and a local chain (ganache), SIGKILLed by its own test hook
 * (PAYOUT_FAULT_POINT) at each dangerous point of a payout, then started again without it. After
 * each restart the chain holds exactly one Transfer per payout, of exactly what was owed, and
 * `npm run ledger:check` finds the books balanced.
 */
const CONFIRMATIONS = 2;

let node: EvmNode;
let fresh: Awaited<ReturnType<typeof createPostgresDatabase>>;
let database: Database;
let dataDir: string;
const secret = randomBytes(32).toString('hex');
const dataKey = randomBytes(32).toString('hex');
let server: BuiltServer | undefined;

const start = (faultPoint?: PayoutFaultPoint) =>
  startBuiltServer({
    NODE_ENV: 'test',
    DATABASE_URL: fresh.url,
    SESSION_SECRET: secret,
    DATA_ENCRYPTION_KEY: dataKey,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PAYOUT_HOLD_NEW_METHOD_HOURS: '0',
    PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
    PAYOUT_FAULT_POINT: faultPoint,
    ...node.env(CONFIRMATIONS),
  });

beforeAll(async () => {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('the payout fault tests need DATABASE_URL (a PostgreSQL server)');
  node = await startEvmNode(10_000n * TOKEN);
  fresh = await createPostgresDatabase(baseUrl);
  dataDir = mkdtempSync(path.join(tmpdir(), 'cb-payout-faults-'));
  // A first start migrates the database; automatic payout is turned on through the API.
  server = await start();
  database = await openDatabase({ databaseUrl: fresh.url });
  await upsertAdmin(database.db, STAFF, 4);
  const { cookie } = await signInStaffOverHttp(server.base, STAFF);
  const on = await call(server.base, cookie, 'PUT', '/api/admin/payout-rails/usdt_bep20', {
    autoPayout: true,
  });
  expect(on.status).toBe(200);
  await server.stop();
  server = undefined;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await fresh?.drop();
  await node?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const payoutOfCard = async (cardId: string) => {
  const [row] = await database.db
    .select({ payout: disbursements })
    .from(disbursementCards)
    .innerJoin(disbursements, eq(disbursements.id, disbursementCards.disbursementId))
    .where(eq(disbursementCards.transactionId, cardId));
  return row?.payout;
};

const exited = (child: BuiltServer['process']) =>
  new Promise<string | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
    else child.once('exit', (_code, signal) => resolve(signal));
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `npm run ledger:check` as an operator runs it, beside the server, on its database. */
function ledgerCheck() {
  const run = spawnSync(process.execPath, ['scripts/operator-command.mjs', 'ledger-check'], {
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: fresh.url, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Approves the card through the staff API of `base`. */
async function approve(base: string, card: { id: string; updatedAt: string }) {
  const { cookie } = await signInStaffOverHttp(base, STAFF);
  const saved = await call(base, cookie, 'PATCH', `/api/admin/transactions/${card.id}`, {
    status: 'completed',
    expectedUpdatedAt: card.updatedAt,
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
}

let payouts = 0;

describe('the USDT rail when the server is killed mid-payout (built server, PostgreSQL, ganache)', () => {
  const cases: {
    point: PayoutFaultPoint;
    /** Transfers to the seller on chain when the process died. */
    onChainAtDeath: number;
    /** The payout's state in the database when the process died. */
    statusAtDeath: string;
  }[] = [
    // Signed and written, not committed: the database rolls it all back; signed again later
    // with the same nonce, as that transaction never left the process.
    { point: 'after-sign', onChainAtDeath: 0, statusAtDeath: 'queued' },
    // Committed with its raw transaction and hash, never broadcast: sent again as stored.
    { point: 'before-broadcast', onChainAtDeath: 0, statusAtDeath: 'submitted' },
    // Broadcast (mined at once on ganache), nothing else done: found by its hash.
    { point: 'after-broadcast', onChainAtDeath: 1, statusAtDeath: 'submitted' },
    // Mined, waiting for its confirmations: counted on after the restart.
    { point: 'confirming', onChainAtDeath: 1, statusAtDeath: 'submitted' },
  ];

  for (const { point, onChainAtDeath, statusAtDeath } of cases) {
    it(`killed at ${point}: exactly one transfer after the restart, and balanced books`, async () => {
      const [card] = await seedUsdtSellers(database.db, 1, point);
      const sellerBefore = await node.balanceOf(card!.wallet);
      expect(sellerBefore).toBe(0n);

      server = await start(point);
      const dying = exited(server.process);
      await approve(server.base, card!);
      // The worker's next tick pays the card, and the hook kills the process at the point.
      expect(await dying).toBe('SIGKILL');
      server = undefined;

      const atDeath = await payoutOfCard(card!.id);
      expect(atDeath?.status).toBe(statusAtDeath);
      const transfersAtDeath = (await node.transfersOut()).filter((t) => t.to === card!.wallet);
      expect(transfersAtDeath).toHaveLength(onChainAtDeath);
      if (statusAtDeath === 'submitted') {
        expect(atDeath!.chainTxHash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(atDeath!.chainRawTx).toMatch(/^0x[0-9a-f]+$/);
        if (onChainAtDeath === 1) expect(transfersAtDeath[0]!.hash).toBe(atDeath!.chainTxHash);
      } else {
        expect(atDeath?.chainTxHash ?? null).toBeNull();
      }

      // Started again without the hook: it finds the payout and finishes it.
      server = await start();
      let confirmed = await payoutOfCard(card!.id);
      while (confirmed?.status !== 'confirmed') {
        expect(['queued', 'submitted']).toContain(confirmed?.status);
        await node.mine(1);
        await sleep(500);
        confirmed = await payoutOfCard(card!.id);
      }
      payouts += 1;

      const transfers = (await node.transfersOut()).filter((t) => t.to === card!.wallet);
      expect(transfers).toHaveLength(1);
      expect(transfers[0]!.value).toBe(CARD_UNITS);
      expect(await node.balanceOf(card!.wallet)).toBe(CARD_UNITS);
      expect(transfers[0]!.hash).toBe(confirmed.chainTxHash);
      expect(confirmed.reference).toBe(confirmed.chainTxHash);
      if (statusAtDeath === 'submitted') {
        // The transaction stored before the kill is the one mined: never signed again.
        expect(confirmed.chainTxHash).toBe(atDeath!.chainTxHash);
        expect(confirmed.chainNonce).toBe(atDeath!.chainNonce);
      }
      // One transfer per payout of the whole run so far, and no other.
      expect(await node.transfersOut()).toHaveLength(payouts);
      const [row] = await database.db
        .select({
          paymentStatus: transactions.paymentStatus,
          reference: transactions.payoutReference,
        })
        .from(transactions)
        .where(eq(transactions.id, card!.id));
      expect(row).toEqual({ paymentStatus: 'confirmed', reference: confirmed.chainTxHash });

      await server.stop();
      server = undefined;
      const check = ledgerCheck();
      expect(check.output).toContain('The books match the cards');
      expect(check.status).toBe(0);
    }, 180_000);
  }

  it('refuses the hook at start when NODE_ENV=production', async () => {
    await expect(
      startBuiltServer({
        NODE_ENV: 'production',
        DATABASE_URL: fresh.url,
        SESSION_SECRET: secret,
        DATA_ENCRYPTION_KEY: dataKey,
        DATA_DIR: dataDir,
        PAYOUT_FAULT_POINT: 'after-sign',
        ...node.env(CONFIRMATIONS),
      }),
    ).rejects.toThrow(/PAYOUT_FAULT_POINT: a test hook that kills the server/);
  }, 60_000);
});
