import {
  createPublicClient,
  defineChain,
  encodeFunctionData,
  formatUnits,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseTransaction,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmConfig } from '../../config';

/**
 * The USDT rail's chain (issue 40, decision 123): an ERC-20 `transfer` from the hot wallet, signed
 * here and broadcast as a raw transaction, so that what is stored before the broadcast is exactly
 * what goes out (and what is sent again after a restart).
 */

const ERC20 = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);

/** A transfer's gas limit: an ERC-20 transfer to a fresh holder takes about 52,000. */
const TRANSFER_GAS = 100_000n;

export interface EvmChain {
  config: EvmConfig;
  wallet: Hex;
  client: ReturnType<typeof createPublicClient>;
  sign(nonce: number, to: Hex, units: bigint, gasPrice: bigint): Promise<{ raw: Hex; hash: Hex }>;
}

const chains = new Map<string, EvmChain>();

/** The chain of a config (one client per RPC URL and key, kept). */
export function evmChain(config: EvmConfig): EvmChain {
  const cacheKey = `${config.rpcUrl}|${config.chainId}|${config.tokenAddress}`;
  const known = chains.get(cacheKey);
  if (known) return known;
  const chain = defineChain({
    id: config.chainId,
    name: `chain ${config.chainId}`,
    nativeCurrency: { name: 'gas', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  const account = privateKeyToAccount(config.privateKey);
  // No cached block number: confirmations are counted from the node's latest answer.
  const client = createPublicClient({
    chain,
    cacheTime: 0,
    transport: http(config.rpcUrl, { retryCount: 0 }),
  });
  const made: EvmChain = {
    config,
    wallet: account.address,
    client,
    async sign(nonce, to, units, gasPrice) {
      const raw = await account.signTransaction({
        type: 'legacy',
        chainId: config.chainId,
        nonce,
        to: config.tokenAddress,
        data: encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [to, units] }),
        gas: TRANSFER_GAS,
        gasPrice,
      });
      return { raw, hash: keccak256(raw) };
    },
  };
  chains.set(cacheKey, made);
  return made;
}

/** Cents as token units: 1 token per dollar, exactly, in the token's decimals. */
export const unitsOf = (cents: number, decimals: number) =>
  BigInt(cents) * 10n ** BigInt(decimals - 2);

/** The hot wallet's token and gas, in units. */
export async function walletFunds(chain: EvmChain) {
  const [token, gas] = await Promise.all([
    chain.client.readContract({
      address: chain.config.tokenAddress,
      abi: ERC20,
      functionName: 'balanceOf',
      args: [chain.wallet],
    }),
    chain.client.getBalance({ address: chain.wallet }),
  ]);
  return { token, gas };
}

/** The balances as finance reads them: decimal strings. */
export async function walletBalances(chain: EvmChain) {
  const { token, gas } = await walletFunds(chain);
  return { token: formatUnits(token, chain.config.tokenDecimals), gas: formatUnits(gas, 18) };
}

/** The gas one transfer may cost at `gasPrice`. */
export const gasFor = (gasPrice: bigint) => TRANSFER_GAS * gasPrice;

/**
 * Sends a stored raw transaction. A node may already hold it (a resend after a restart, or by
 * another instance's watcher): whether that is an error is decided by asking the node for it, not
 * by the error's wording. After any error, a node that holds the transaction (pending, being mined
 * or mined), or has counted past its nonce (the watcher then settles it, mined or dropped), has
 * it. Nodes word a resend differently: geth says "already known", ganache "transaction
 * underpriced" while it holds it. The send is not skipped when the node is asked first and
 * says it has it: a send again is cheap. But the same bytes must never be sent twice at once:
 * ganache 7 runs a transaction twice when two sends of it arrive together (its nonce counted
 * twice, the seller paid twice). The caller holds the payout's send lease (`chain_sent_at`,
 * decision 123), which keeps the starts of two sends of one transfer apart.
 */
export async function broadcast(chain: EvmChain, raw: Hex): Promise<void> {
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (await nodeHas(chain, raw, keccak256(raw))) return;
    throw error;
  }
}

/** Whether the node holds the transaction, or has counted past its nonce. */
async function nodeHas(chain: EvmChain, raw: Hex, hash: Hex) {
  const found = await chain.client.getTransaction({ hash }).then(
    () => true,
    (error: Error) => {
      if (error.name === 'TransactionNotFoundError') return false;
      throw error;
    },
  );
  if (found) return true;
  const { nonce } = parseTransaction(raw);
  const counted = await chain.client.getTransactionCount({
    address: chain.wallet,
    blockTag: 'latest',
  });
  return nonce !== undefined && nonce < counted;
}
