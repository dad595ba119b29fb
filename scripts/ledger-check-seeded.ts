/**
 * CI's check of the books (issue 39): a database seeded through the app's own API with every kind
 * of money event (approvals, revised offers, rejections, payments marked sent and set back,
 * clawbacks netted against later payouts, write-offs, an appeal), then `npm run ledger:check` run
 * on it as an operator would, its answer and exit code passed on. On the PostgreSQL of
 * DATABASE_URL when set (a database of its own, dropped after), else on an embedded one in a
 * temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import {
  addPaymentMethod,
  as,
  type SignedIn,
  signInStaff,
  signUp,
  uploadCardImage,
} from '../tests/api/helpers';
import { createPostgresDatabase } from './lib/postgres';

const SELLERS = Number(process.env.SEED_SELLERS ?? 12);
const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-ledger-check-'));
const fresh = process.env.DATABASE_URL
  ? await createPostgresDatabase(process.env.DATABASE_URL)
  : null;
const database = await openDatabase({
  databaseUrl: fresh?.url,
  pgliteDir: fresh ? undefined : path.join(dataDir, 'db'),
});
await database.migrate();
const config = {
  ...loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    BCRYPT_COST: '4',
    LOG_LEVEL: 'silent',
    PAYOUT_HOLD_NEW_METHOD_HOURS: '0',
    PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
    LIMIT_SIGNUPS_PER_ADDRESS: '100000',
    LIMIT_UPLOADS_PER_HOUR: '100000',
  }),
  databaseUrl: fresh?.url,
};
const app = await buildApp(config, database);
await app.ready();
const staff = await signInStaff({ app, database, config, now: Date.now } as never);

const call = async (
  who: SignedIn,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
) => {
  const response = await as(app, who, { method, url, payload });
  if (response.statusCode >= 500) throw new Error(`${method} ${url}: ${response.body}`);
  return response;
};
/** A staff save as the portal sends it, with the version it saw. */
const review = async (id: string, payload: object) => {
  const { updatedAt } = (await call(staff, 'GET', `/api/admin/transactions/${id}`)).json();
  return call(staff, 'PATCH', `/api/admin/transactions/${id}`, {
    ...payload,
    expectedUpdatedAt: updatedAt,
  });
};
/** Marks a card sent at the amount the payouts list shows for it. */
const markSent = async (id: string) => {
  const { groups } = (await call(staff, 'GET', '/api/admin/payouts')).json();
  const row = groups
    .flatMap((g: { cards: { id: string; amount: string }[] }) => g.cards)
    .find((c: { id: string }) => c.id === id);
  if (row)
    await call(staff, 'POST', '/api/admin/payouts/mark-sent', {
      items: [{ id, amount: row.amount }],
      payoutReference: `SEED-${id.slice(0, 8)}`,
    });
};

let events = 0;
for (let s = 0; s < SELLERS; s++) {
  const seller = await signUp(app);
  const method = await addPaymentMethod(app, seller, {
    identifier: `seller${s}.${seller.user.id.slice(0, 6)}@example.com`,
  });
  const cards: string[] = [];
  for (const value of ['100', '50', '200', '75']) {
    const created = await call(seller, 'POST', '/api/transactions', {
      cardType: ['Amazon', 'Steam', 'Visa', 'Target'][s % 4],
      cardValue: value,
      cardCondition: 'brand_new',
      cardFormat: 'egift',
      paymentMethodId: method.id,
      imageUrls: [await uploadCardImage(app, seller)],
    });
    cards.push(created.json().id);
  }
  const [a, b, c, d] = cards as [string, string, string, string];
  await review(a, { status: 'processing' });
  await markSent(a);
  await call(staff, 'POST', `/api/admin/transactions/${a}/clawback`, {
    amount: s % 2 === 0 ? '20.00' : '45.00',
    reason: s % 3 === 0 ? 'already_redeemed' : 'chargeback',
  });
  if (s % 4 === 1)
    await call(seller, 'POST', `/api/transactions/${a}/appeal`, {
      message: 'I did not use it',
      imageUrls: [],
    });
  if (s % 4 === 1)
    await call(staff, 'POST', `/api/admin/transactions/${a}/appeal/decision`, {
      decision: s % 8 === 1 ? 'overturned' : 'upheld',
      note: null,
    });
  await review(b, { status: 'completed' });
  await markSent(b);
  await call(staff, 'POST', `/api/admin/transactions/${c}/offer`, {
    verifiedValue: '150',
    note: 'The card holds $150',
  });
  await call(seller, 'POST', `/api/transactions/${c}/offer/${s % 2 === 0 ? 'accept' : 'decline'}`);
  if (s % 2 === 0) await markSent(c);
  await review(d, { status: 'processing' });
  if (s % 3 === 0) await review(d, { status: 'rejected', rejectionReason: 'code_invalid' });
  if (s % 3 === 1) {
    await markSent(d);
    await review(d, { paymentStatus: 'pending' });
  }
  if (s % 5 === 4) {
    const [clawback] = (await call(staff, 'GET', `/api/admin/transactions/${a}/clawbacks`)).json();
    if (clawback?.status === 'open')
      await call(staff, 'POST', `/api/admin/clawbacks/${clawback.id}/write-off`, {
        note: 'Seller left',
      });
  }
  events += 16;
}
await app.close();
await database.close();
console.log(`Seeded ${SELLERS} sellers through the API (about ${events} money events).`);

const check = spawnSync('npm', ['run', '--silent', 'ledger:check'], {
  env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: fresh?.url ?? '' },
  stdio: 'inherit',
});
await fresh?.drop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(check.status ?? 1);
