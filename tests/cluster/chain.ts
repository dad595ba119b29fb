import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Db } from '../../src/server/db/client';
import { TOKEN } from '../lib/evm-chain';

/**
 * What the cluster tests and `npm run bench:payouts` add to the tests' local EVM chain
 * (tests/lib/evm-chain.ts, re-exported here): a proxy that can take the node down, and sellers
 * seeded straight into the database.
 */
export { CHAIN_ID, type EvmNode, startEvmNode, TOKEN } from '../lib/evm-chain';

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
