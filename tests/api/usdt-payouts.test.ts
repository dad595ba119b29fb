import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  parseAbi,
  parseAbiItem,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/modules/ledger';
import { payEvmPayouts, queueAutomaticPayouts } from '../../src/server/modules/payouts';
import {
  addPaymentMethod,
  as,
  reviewCard,
  type SignedIn,
  setUpStaff,
  setUpTestApp,
  signUp,
  uploadCardImage,
} from './helpers';

/**
 * The USDT rail against a real EVM node (issue 40, decision 123): ganache, started here on
 * 127.0.0.1, with OpenZeppelin's ERC-20 compiled by solc from npm and deployed at the start; the
 * hot wallet funded with gas and tokens. The tests read the chain itself: balances and Transfer
 * events.
 */
const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');
const CHAIN_ID = 1337;
const HOT_KEY = generatePrivateKey();
const DEPLOYER_KEY = generatePrivateKey();
const hot = privateKeyToAccount(HOT_KEY);
const deployer = privateKeyToAccount(DEPLOYER_KEY);
const TOKEN = 10n ** 18n;

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
contract TestUSDT is ERC20 {
  constructor(uint256 supply) ERC20("Tether USD", "USDT") { _mint(msg.sender, supply); }
}`;

function compileToken() {
  const solc = require('solc') as { compile(input: string, options: object): string };
  const input = {
    language: 'Solidity',
    sources: { 'TestUSDT.sol': { content: SOURCE } },
    settings: {
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (file: string) => {
        try {
          return { contents: readFileSync(path.join(ROOT, 'node_modules', file), 'utf8') };
        } catch {
          return { error: `not found: ${file}` };
        }
      },
    }),
  );
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  const contract = output.contracts['TestUSDT.sol'].TestUSDT;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` as Hex };
}

const node = {} as {
  server: { listen(port: number, host: string): Promise<void>; close(): Promise<void> };
  url: string;
  token: Hex;
};
const ERC20 = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);
const chainOf = (url: string) =>
  defineChain({
    id: CHAIN_ID,
    name: 'local',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });

beforeAll(async () => {
  const ganache = require('ganache') as {
    server(options: object): typeof node.server & { address(): { port: number } };
  };
  const wei = `0x${(10n ** 21n).toString(16)}`;
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: CHAIN_ID },
    wallet: {
      accounts: [
        { secretKey: HOT_KEY, balance: wei },
        { secretKey: DEPLOYER_KEY, balance: wei },
      ],
    },
  });
  await server.listen(0, '127.0.0.1');
  node.server = server;
  node.url = `http://127.0.0.1:${server.address().port}`;
  const chain = chainOf(node.url);
  const pub = createPublicClient({ chain, transport: http() });
  const wallet = createWalletClient({ account: deployer, chain, transport: http() });
  const { abi, bytecode } = compileToken();
  const hash = await wallet.deployContract({ abi, bytecode, args: [1_000_000n * TOKEN] });
  node.token = (await pub.waitForTransactionReceipt({ hash })).contractAddress!;
  // The hot wallet holds 150 tokens: one $100 card's payout, not two.
  await fundHotWallet(150n * TOKEN);
}, 120_000);

afterAll(async () => {
  await node.server?.close();
});

const publicClient = () => createPublicClient({ chain: chainOf(node.url), transport: http() });

async function fundHotWallet(amount: bigint) {
  const chain = chainOf(node.url);
  const wallet = createWalletClient({ account: deployer, chain, transport: http() });
  const hash = await wallet.writeContract({
    address: node.token,
    abi: ERC20,
    functionName: 'transfer',
    args: [hot.address, amount],
  });
  await publicClient().waitForTransactionReceipt({ hash });
}

const balanceOf = (address: Hex) =>
  publicClient().readContract({
    address: node.token,
    abi: ERC20,
    functionName: 'balanceOf',
    args: [address],
  });

const transfersTo = async (address: Hex) =>
  publicClient().getLogs({
    address: node.token,
    event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
    args: { from: hot.address, to: address },
    fromBlock: 0n,
  });

/** Mines `blocks` empty blocks, one after the other. */
async function mine(blocks: number) {
  for (let i = 0; i < blocks; i++) {
    const response = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'evm_mine', params: [] }),
    });
    await response.json();
  }
}

const t = setUpTestApp(() => ({
  payouts: {
    ach: undefined,
    evm: {
      rpcUrl: node.url,
      chainId: CHAIN_ID,
      tokenAddress: node.token,
      tokenDecimals: 18,
      privateKey: HOT_KEY,
      confirmations: 3,
    },
    explorerTxUrl: 'https://testnet.bscscan.com/tx/',
  },
}));
const staff = setUpStaff(t, 'usdt-finance@example.com');

/** A seller with a BEP-20 wallet of their own, and an approved $100 card paid to it. */
async function approvedUsdtCard() {
  const who: SignedIn = await signUp(t.app);
  const address = privateKeyToAccount(generatePrivateKey()).address;
  const method = await addPaymentMethod(t.app, who, {
    type: 'usdt_bep20',
    accountName: 'Seller wallet',
    identifier: address,
  });
  const image = await uploadCardImage(t.app, who);
  const created = await as(t.app, who, {
    method: 'POST',
    url: '/api/transactions',
    payload: {
      cardType: 'Amazon',
      cardValue: '100',
      cardCondition: 'brand_new',
      cardFormat: 'egift',
      paymentMethodId: method.id,
      imageUrls: [image],
    },
  });
  const { id, expectedPayout } = created.json() as { id: string; expectedPayout: string };
  expect((await reviewCard(t.app, staff, id, { status: 'completed' })).statusCode).toBe(200);
  return { who, id, expectedPayout, address };
}

const cardRow = async (id: string) =>
  (await t.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
const payoutOf = async (who: SignedIn, id: string) =>
  (
    (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json() as {
      id: string;
      payout: { status: string; reference: string | null; url: string | null } | null;
    }[]
  ).find((c) => c.id === id)!.payout;

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
    expect(await balanceOf(card.address)).toBe(units);
    const transfers = await transfersTo(card.address);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.transactionHash).toBe(hash);
    expect(transfers[0]!.args.value).toBe(units);

    // Not enough blocks on top yet: still submitted; after them, confirmed.
    await t.app.run(payEvmPayouts);
    expect((await cardRow(card.id)).paymentStatus).toBe('sent');
    await mine(3);
    await t.app.run(payEvmPayouts);
    expect((await cardRow(card.id)).paymentStatus).toBe('confirmed');
    expect(await payoutOf(card.who, card.id)).toMatchObject({ status: 'confirmed' });
    // Passes after it pay nothing again.
    await t.app.run(payEvmPayouts);
    expect(await transfersTo(card.address)).toHaveLength(1);
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
    expect(await transfersTo(card.address)).toHaveLength(0);

    await fundHotWallet(500n * TOKEN);
    t.advance(60_000);
    await t.app.run((context) => payEvmPayouts(context, alert));
    expect((await cardRow(card.id)).paymentStatus).toBe('sent');
    expect(await transfersTo(card.address)).toHaveLength(1);
    expect(alerts).toEqual(['funds']);
    expect(await checkLedger(t.database.db)).toEqual([]);
  }, 120_000);

  it('pays ten approvals with two workers at once: exactly one transfer each', async () => {
    await fundHotWallet(2_000n * TOKEN);
    const cards = [];
    for (let i = 0; i < 10; i++) cards.push(await approvedUsdtCard());
    await Promise.all([t.app.run(queueAutomaticPayouts), t.app.run(queueAutomaticPayouts)]);
    for (let pass = 0; pass < 3; pass++) {
      await Promise.all([t.app.run(payEvmPayouts), t.app.run(payEvmPayouts)]);
    }
    for (const card of cards) {
      expect(await transfersTo(card.address)).toHaveLength(1);
      // Sent, or already confirmed by the blocks the other transfers made.
      expect(['sent', 'confirmed']).toContain((await cardRow(card.id)).paymentStatus);
    }
    expect(await checkLedger(t.database.db)).toEqual([]);
  }, 180_000);
});
