import { and, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disbursementCards, disbursements, transactions } from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/modules/ledger';
import { payEvmPayouts, queueAutomaticPayouts } from '../../src/server/modules/payouts';
import { SEND_LEASE_MS } from '../../src/server/modules/payouts/commands';
import { broadcast, evmChain } from '../../src/server/modules/payouts/evm';
import { CHAIN_ID, type EvmNode, startEvmNode, TOKEN } from '../lib/evm-chain';
import { cardApprovedBy, sellersCard, setUpAppWithStaff } from './builders';
import { as, type SignedIn } from './helpers';

/**
 * The USDT rail against a real EVM node (issue 40, decision 123): the tests' local chain
 * (tests/lib/evm-chain.ts), started here on 127.0.0.1 with its hot wallet funded with gas and
 * tokens. The tests read the chain itself: balances and Transfer events.
 */
let node: EvmNode;

beforeAll(async () => {
  // The hot wallet holds 150 tokens: one $100 card's payout, not two.
  node = await startEvmNode(150n * TOKEN);
}, 120_000);

afterAll(async () => {
  await node?.stop();
});

const { t, staff } = setUpAppWithStaff(
  () => ({
    payouts: {
      ach: undefined,
      evm: {
        rpcUrl: node.url,
        chainId: CHAIN_ID,
        tokenAddress: node.token,
        tokenDecimals: 18,
        privateKey: node.hotKey,
        confirmations: 3,
      },
      explorerTxUrl: 'https://testnet.bscscan.com/tx/',
    },
  }),
  'usdt-finance@example.com',
);

/** A seller with a BEP-20 wallet of their own, and an approved $100 card paid to it. */
async function approvedUsdtCard() {
  const address = privateKeyToAccount(generatePrivateKey()).address;
  const method = { type: 'usdt_bep20', accountName: 'Seller wallet', identifier: address };
  return { ...(await cardApprovedBy(t, staff, { method })), address };
}

const cardRow = async (id: string) =>
  (await t.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
const payoutRow = async (cardId: string) =>
  (
    await t.database.db
      .select({ payout: disbursements })
      .from(disbursementCards)
      .innerJoin(disbursements, eq(disbursements.id, disbursementCards.disbursementId))
      .where(and(eq(disbursementCards.transactionId, cardId), eq(disbursementCards.active, true)))
  )[0]!.payout;
const payoutOf = async (who: SignedIn, id: string) =>
  (
    await sellersCard<{
      payout: { status: string; reference: string | null; url: string | null } | null;
    }>(t, who, id)
  ).payout;

describe('the USDT rail on a local chain (ganache)', () => {
  it('shows the hot wallet’s balances and turns automatic payout on', async () => {
    const response = await as(t.app, staff, {
      method: 'PUT',
      url: '/api/admin/payout-rails/usdt_bep20',
      payload: { autoPayout: true },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      rail: 'usdt_bep20',
      kind: 'evm_token',
      configured: true,
      autoPayout: true,
      balances: { token: '150' },
    });
  });

  it('pays an approved card once on chain, exactly, and confirms it after the confirmations', async () => {
    const card = await approvedUsdtCard();
    expect(await t.app.run(queueAutomaticPayouts)).toBe(1);
    expect(await payoutOf(card.who, card.id)).toMatchObject({ status: 'queued' });
    // Two workers at once: one claims it, the other finds nothing to do.
    await Promise.all([t.app.run(payEvmPayouts), t.app.run(payEvmPayouts)]);
    const row = await cardRow(card.id);
    expect(row.paymentStatus).toBe('sent');
    const hash = row.payoutReference!;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await payoutOf(card.who, card.id)).toEqual({
      status: 'submitted',
      rail: 'usdt_bep20',
      reference: hash,
      url: `https://testnet.bscscan.com/tx/${hash}`,
    });
    const units = BigInt(Math.round(Number(card.expectedPayout) * 100)) * 10n ** 16n;
    expect(await node.balanceOf(card.address)).toBe(units);
    const transfers = await node.transfersTo(card.address);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.hash).toBe(hash);
    expect(transfers[0]!.value).toBe(units);

    // Not enough blocks on top yet: still submitted; after them, confirmed.
    await t.app.run(payEvmPayouts);
    expect((await cardRow(card.id)).paymentStatus).toBe('sent');
    await node.mine(3);
    await t.app.run(payEvmPayouts);
    expect((await cardRow(card.id)).paymentStatus).toBe('confirmed');
    expect(await payoutOf(card.who, card.id)).toMatchObject({ status: 'confirmed' });
    // Passes after it pay nothing again.
    await t.app.run(payEvmPayouts);
    expect(await node.transfersTo(card.address)).toHaveLength(1);
    expect(await checkLedger(t.database.db)).toEqual([]);
  }, 120_000);

  it('waits when the hot wallet is short, alerting once, and pays once it is funded', async () => {
    const card = await approvedUsdtCard();
    await t.app.run(queueAutomaticPayouts);
    const alerts: string[] = [];
    const alert = (what: string) => alerts.push(what);
    await t.app.run((context) => payEvmPayouts(context, alert));
    t.advance(60_000);
    await t.app.run((context) => payEvmPayouts(context, alert));
    expect(alerts).toEqual(['funds']);
    expect((await cardRow(card.id)).paymentStatus).toBe('pending');
    expect(await payoutOf(card.who, card.id)).toMatchObject({ status: 'queued' });
    expect(await node.transfersTo(card.address)).toHaveLength(0);

    await node.fundHotWallet(500n * TOKEN);
    t.advance(60_000);
    await t.app.run((context) => payEvmPayouts(context, alert));
    expect((await cardRow(card.id)).paymentStatus).toBe('sent');
    expect(await node.transfersTo(card.address)).toHaveLength(1);
    expect(alerts).toEqual(['funds']);
    expect(await checkLedger(t.database.db)).toEqual([]);
  }, 120_000);

  it('pays ten approvals with two workers at once: exactly one transfer each', async () => {
    await node.fundHotWallet(2_000n * TOKEN);
    const cards = [];
    for (let i = 0; i < 10; i++) cards.push(await approvedUsdtCard());
    await Promise.all([t.app.run(queueAutomaticPayouts), t.app.run(queueAutomaticPayouts)]);
    for (let pass = 0; pass < 3; pass++) {
      await Promise.all([t.app.run(payEvmPayouts), t.app.run(payEvmPayouts)]);
    }
    for (const card of cards) {
      expect(await node.transfersTo(card.address)).toHaveLength(1);
      // Sent, or already confirmed by the blocks the other transfers made.
      expect(['sent', 'confirmed']).toContain((await cardRow(card.id)).paymentStatus);
    }
    expect(await checkLedger(t.database.db)).toEqual([]);
  }, 180_000);
});

describe('sending a signed transfer again', () => {
  it('happens once across instances, after its send lease, when the node lost it, and before any later transfer', async () => {
    await node.fundHotWallet(200n * TOKEN);
    const card = await approvedUsdtCard();
    await t.app.run(queueAutomaticPayouts);
    // Paid, then forgotten by the node (as after a node restart that lost its pool): the payout
    // is submitted with its signed transaction, which the chain does not have.
    const before = await node.snapshot();
    await t.app.run(payEvmPayouts);
    expect(await node.transfersTo(card.address)).toHaveLength(1);
    await node.revert(before);
    expect(await node.transfersTo(card.address)).toHaveLength(0);
    const hash = (await cardRow(card.id)).payoutReference;

    // Within the send lease taken with the signature, no pass sends it again; and no transfer
    // after it is signed while the node lacks it (transfers reach the node in nonce order).
    const next = await approvedUsdtCard();
    await t.app.run(queueAutomaticPayouts);
    await Promise.all([t.app.run(payEvmPayouts), t.app.run(payEvmPayouts)]);
    expect(await node.transfersTo(card.address)).toHaveLength(0);
    expect(await payoutRow(next.id)).toMatchObject({ status: 'queued', chainNonce: null });

    // After it, two passes at once (as two instances' watchers): the one that wins the lease
    // sends, once. (Two sends arriving together, ganache runs twice.)
    t.advance(SEND_LEASE_MS + 1);
    await Promise.all([t.app.run(payEvmPayouts), t.app.run(payEvmPayouts)]);
    const transfers = await node.transfersTo(card.address);
    expect(transfers.map((transfer) => transfer.hash)).toEqual([hash]);
    // Then the next, with the nonce after it.
    const [first, second] = [await payoutRow(card.id), await payoutRow(next.id)];
    expect(second.status).toBe('submitted');
    expect(second.chainNonce).toBe(first.chainNonce! + 1);
    expect(await node.transfersTo(next.address)).toHaveLength(1);

    // Mined: a send after it is the same transfer, and nothing more.
    await broadcast(
      evmChain(t.app.config.payouts.evm!),
      (await payoutRow(card.id)).chainRawTx as Hex,
    );
    await node.mine(3);
    await t.app.run(payEvmPayouts);
    expect((await cardRow(card.id)).paymentStatus).toBe('confirmed');
    expect((await cardRow(next.id)).paymentStatus).toBe('confirmed');
    expect(await node.transfersTo(card.address)).toHaveLength(1);
    expect(await checkLedger(t.database.db)).toEqual([]);
  }, 60_000);
});
