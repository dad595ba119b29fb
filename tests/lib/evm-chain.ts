import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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

/**
 * The one local EVM chain of the tests (issue 40): the USDT rail's API tests (tests/api), its
 * browser test (tests/e2e), the cluster tests and `npm run bench:payouts` (through
 * tests/cluster/chain.ts) all start it here. Ganache on 127.0.0.1, OpenZeppelin's ERC-20 compiled
 * by solc from npm and deployed at the start, and a hot wallet with gas (and tokens, when asked).
 * What is read back is the chain itself: balances and the token's Transfer events.
 */
const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');
export const CHAIN_ID = 1337;
/** One token in its smallest units (18 decimals). */
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
  /** The Transfers of the token from the hot wallet to `address`, oldest first. */
  transfersTo(address: Hex): Promise<{ to: Hex; value: bigint; hash: Hex }[]>;
  /** Mines `blocks` empty blocks, one after the other. */
  mine(blocks: number): Promise<void>;
  /** The chain's state now, to go back to with `revert` (ganache's evm_snapshot). */
  snapshot(): Promise<string>;
  /** Forgets every block and transaction since `snapshot`, as a node that lost them. */
  revert(snapshot: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts ganache on 127.0.0.1, deploys the token and sends the hot wallet `tokens` (smallest
 * units; none when 0n, for a test that funds it itself).
 */
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

  const transfers = async (args: { from: Hex; to?: Hex }) => {
    const logs = await pub.getLogs({ address: token, event: TRANSFER, args, fromBlock: 0n });
    return logs.map((l) => ({ to: l.args.to!, value: l.args.value!, hash: l.transactionHash }));
  };
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
    transfersOut: () => transfers({ from: hot.address }),
    transfersTo: (to) => transfers({ from: hot.address, to }),
    async mine(blocks) {
      for (let i = 0; i < blocks; i++) await rpc('evm_mine');
    },
    snapshot: async () => String(await rpc('evm_snapshot')),
    async revert(snapshot) {
      if ((await rpc('evm_revert', [snapshot])) !== true) throw new Error('evm_revert refused');
    },
    stop: () => server.close(),
  };
  if (tokens > 0n) await node.fundHotWallet(tokens);
  return node;
}
