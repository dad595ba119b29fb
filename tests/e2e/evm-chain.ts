import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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

/**
 * A local EVM chain for the browser test of the USDT rail (issue 40), as tests/api/usdt-payouts
 * starts one: ganache on 127.0.0.1, OpenZeppelin's ERC-20 compiled by solc from npm and deployed
 * at the start, and a hot wallet with gas (its tokens are sent by the test, when it wants). The
 * test reads the chain itself: balances and Transfer events.
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

export interface LocalChain {
  url: string;
  token: Hex;
  hotKey: Hex;
  hot: Hex;
  /** Sends `amount` (smallest units) of the token from the deployer to the hot wallet. */
  fundHotWallet(amount: bigint): Promise<void>;
  balanceOf(address: Hex): Promise<bigint>;
  /** The Transfer events from the hot wallet to `address`. */
  transfersTo(address: Hex): Promise<{ hash: Hex; value: bigint }[]>;
  /** Mines `blocks` empty blocks. */
  mine(blocks: number): Promise<void>;
  close(): Promise<void>;
}

export async function startLocalChain(): Promise<LocalChain> {
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
  const wei = `0x${(10n ** 21n).toString(16)}`;
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: CHAIN_ID },
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
  const pub = createPublicClient({ chain, transport: http() });
  const wallet = createWalletClient({ account: deployer, chain, transport: http() });
  const { abi, bytecode } = compileToken();
  const deployed = await wallet.deployContract({ abi, bytecode, args: [1_000_000n * TOKEN] });
  const token = (await pub.waitForTransactionReceipt({ hash: deployed })).contractAddress!;
  return {
    url,
    token,
    hotKey,
    hot: hot.address,
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
    async transfersTo(address) {
      const logs = await pub.getLogs({
        address: token,
        event: parseAbiItem(
          'event Transfer(address indexed from, address indexed to, uint256 value)',
        ),
        args: { from: hot.address, to: address },
        fromBlock: 0n,
      });
      return logs.map((l) => ({ hash: l.transactionHash, value: l.args.value! }));
    },
    async mine(blocks) {
      for (let i = 0; i < blocks; i++) {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'evm_mine', params: [] }),
        });
        await response.json();
      }
    },
    close: () => server.close(),
  };
}
