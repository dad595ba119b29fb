import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  parseAbi,
  parseAbiItem,
  http as viemHttp,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Db } from '../../src/server/db/client';

/**
 * A local EVM chain for the payout tests and `npm run bench:payouts` (issue 40): ganache on
 * 127.0.0.1, OpenZeppelin's ERC-20 compiled by solc from npm and deployed at the start, and a hot
 * wallet funded with gas and tokens. What is read back is the chain itself: balances and the
 * token's Transfer events.
 */
const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');
export const CHAIN_ID = 1337;
export const TOKEN = 10n ** 18n;

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

const ERC20 = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);
const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

export interface EvmNode {
  url: string;
  token: Hex;
  hotKey: Hex;
  hot: Hex;
  /** The server's environment for the USDT rail on this chain (the RPC URL may be replaced). */
  env(confirmations: number, rpcUrl?: string): Record<string, string>;
  fundHotWallet(tokens: bigint): Promise<void>;
  balanceOf(address: Hex): Promise<bigint>;
  /** Every Transfer of the token out of the hot wallet, oldest first. */
  transfersOut(): Promise<{ to: Hex; value: bigint; hash: Hex }[]>;
  mine(blocks: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts ganache on 127.0.0.1, deploys the token and funds the hot wallet with `tokens`. */
export async function startEvmNode(tokens: bigint): Promise<EvmNode> {
  const hotKey = generatePrivateKey();
  const deployerKey = generatePrivateKey();
  const hot = privateKeyToAccount(hotKey);
  const deployer = privateKeyToAccount(deployerKey);
  const ganache = require('ganache') as {
    server(options: object): {
      listen(port: number, host: string): Promise<void>;
      close(): Promise<void>;
      address(): { port: number };
    };
  };
  const wei = `0x${(10n ** 22n).toString(16)}`;
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: CHAIN_ID },
    miner: { blockGasLimit: '0x1c9c380' },
    wallet: {
      accounts: [
        { secretKey: hotKey, balance: wei },
        { secretKey: deployerKey, balance: wei },
      ],
    },
  });
  await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${server.address().port}`;
  const chain = defineChain({
    id: CHAIN_ID,
    name: 'local',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const pub = createPublicClient({ chain, transport: viemHttp(url) });
  const wallet = createWalletClient({ account: deployer, chain, transport: viemHttp(url) });
  const { abi, bytecode } = compileToken();
  const deployed = await wallet.deployContract({ abi, bytecode, args: [100_000_000n * TOKEN] });
  const token = (await pub.waitForTransactionReceipt({ hash: deployed })).contractAddress!;

  const rpc = async (method: string, params: unknown[] = []) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await response.json()) as { result: unknown }).result;
  };
  const node: EvmNode = {
    url,
    token,
    hotKey,
    hot: hot.address,
    env: (confirmations, rpcUrl = url) => ({
      PAYOUT_EVM_RPC_URL: rpcUrl,
      PAYOUT_EVM_CHAIN_ID: String(CHAIN_ID),
      PAYOUT_EVM_TOKEN_ADDRESS: token,
      PAYOUT_EVM_TOKEN_DECIMALS: '18',
      PAYOUT_EVM_PRIVATE_KEY: hotKey,
      PAYOUT_EVM_CONFIRMATIONS: String(confirmations),
      PAYOUT_EVM_EXPLORER_TX_URL: 'https://testnet.bscscan.com/tx/',
    }),
    async fundHotWallet(amount) {
      const hash = await wallet.writeContract({
        address: token,
        abi: ERC20,
        functionName: 'transfer',
        args: [hot.address, amount],
      });
      await pub.waitForTransactionReceipt({ hash });
    },
    balanceOf: (address) =>
      pub.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [address] }),
    async transfersOut() {
      const logs = await pub.getLogs({
        address: token,
        event: TRANSFER,
        args: { from: hot.address },
        fromBlock: 0n,
      });
      return logs.map((l) => ({ to: l.args.to!, value: l.args.value!, hash: l.transactionHash }));
    },
    async mine(blocks) {
      for (let i = 0; i < blocks; i++) await rpc('evm_mine');
    },
    stop: () => server.close(),
  };
  if (tokens > 0n) await node.fundHotWallet(tokens);
  return node;
}

/**
 * An HTTP proxy in front of the node, which can be taken down: while down it answers every
 * request 503 at once, as a load balancer before a dead node would, and counts them.
 */
export async function startRpcProxy(target: string) {
  let down = false;
  let requests = 0;
  let refused = 0;
  const server = http.createServer((request, response) => {
    requests += 1;
    if (down) {
      refused += 1;
      request.resume();
      response.writeHead(503, { 'content-type': 'text/plain' }).end('node down');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      })
        .then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setDown(value: boolean) {
      down = value;
    },
    get requests() {
      return requests;
    },
    get refused() {
      return refused;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sellers straight into the database (as the benchmarks seed): each a customer with a BEP-20
 * wallet of their own as their default method and one $100 Amazon card waiting for review.
 * Answers each card's id, updatedAt and the seller's wallet.
 */
export async function seedUsdtSellers(db: Db, count: number, tag: string) {
  const wallets = Array.from(
    { length: count },
    () => privateKeyToAccount(generatePrivateKey()).address,
  );
  const rows = await db.execute<{ id: string; updated_at: string; identifier: Hex }>(sql`
    with sellers as (
      insert into users (email, password, first_name, last_name)
      select 'seller' || g || '.' || ${tag} || '@chain.example', 'x', 'Seller', 'Number' || g
      from generate_series(1, ${count}) g
      returning id, last_name
    ), methods as (
      insert into payment_methods (user_id, type, account_name, identifier, is_default)
      select s.id, 'usdt_bep20', 'Seller wallet',
             (string_to_array(${wallets.join(',')}, ','))[substring(s.last_name from 7)::int], true
      from sellers s
      returning id, user_id, identifier
    ), cards as (
      insert into transactions (user_id, card_type, card_value, card_condition, card_format,
                                image_urls, payment_method_id, payout_rate, expected_payout)
      select m.user_id, 'Amazon', 100.00, 'brand_new', 'egift',
             array['/objects/cards/' || gen_random_uuid() || '.png'], m.id, 0.9100, 91.00
      from methods m
      returning id, updated_at, payment_method_id
    )
    select c.id, c.updated_at::text, m.identifier
    from cards c join methods m on m.id = c.payment_method_id`);
  return rows.rows.map((r) => ({
    id: r.id,
    updatedAt: new Date(r.updated_at).toISOString(),
    wallet: r.identifier,
  }));
}

/** What one seller's card pays on chain: $91.00, 91 tokens. */
export const CARD_UNITS = 91n * TOKEN;
