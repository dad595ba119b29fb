import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStaffOverHttp } from '../../scripts/lib/staff-sign-in';
import { upsertAdmin } from '../../src/server/common/accounts';
import { openDatabase } from '../../src/server/db/client';
import { admins } from '../../src/server/db/schema';
import { openEvents } from '../api/live-helpers';
import {
  type Cluster,
  call,
  eventually,
  type Instance,
  STAFF,
  signIn,
  startCluster,
} from './cluster';

const staffSignIn = async (base: string) => (await signInStaffOverHttp(base, STAFF)).cookie;

let cluster: Cluster;
let a: Instance;
let b: Instance;
beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.instances as [Instance, Instance];
});
afterAll(() => cluster?.stop());

let counter = 0;
const newCustomer = (base: string) =>
  signIn(base, '/api/signup', {
    email: `cluster.${Date.now().toString(36)}.${++counter}@example.com`,
    password: 'cluster password 1',
    firstName: 'Cleo',
    lastName: 'Cluster',
  });

async function submitCard(base: string, cookie: string) {
  const method = await (
    await call(base, cookie, 'POST', '/api/payment-methods', {
      type: 'paypal',
      accountName: 'Cleo Cluster',
      identifier: 'cleo@example.com',
    })
  ).json();
  const form = new FormData();
  const image = readFileSync('tests/fixtures/card-front.jpg');
  form.append('file', new Blob([image], { type: 'image/jpeg' }), 'card-front.jpg');
  const upload = await fetch(`${base}/api/upload-card-image`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  const { objectPath } = await upload.json();
  const created = await call(base, cookie, 'POST', '/api/transactions', {
    cardType: 'Amazon',
    cardValue: '100',
    cardCondition: 'brand_new',
    cardFormat: 'egift',
    paymentMethodId: method.id,
    imageUrls: [objectPath],
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string; updatedAt: string };
}

describe('two instances on one PostgreSQL', () => {
  it('share sessions, and a sign-out on one is honoured by the other', async () => {
    const cookie = await newCustomer(a.base);
    // B has never seen this session: it reads it, then answers from memory.
    expect((await call(b.base, cookie, 'GET', '/api/auth/user')).status).toBe(200);
    expect((await call(b.base, cookie, 'GET', '/api/stats')).status).toBe(200);
    expect((await call(a.base, cookie, 'POST', '/api/logout')).status).toBe(200);
    await eventually(async () => (await call(b.base, cookie, 'GET', '/api/stats')).status === 401);
    expect((await call(b.base, cookie, 'GET', '/api/auth/user')).status).toBe(401);
  });

  it('a staff change through one reaches the other’s poll and event stream', async () => {
    const customer = await newCustomer(a.base);
    const card = await submitCard(a.base, customer);
    const staff = await staffSignIn(a.base);

    // The customer's page is served by B: primed, so B answers it from memory.
    const first = await call(b.base, customer, 'GET', '/api/transactions');
    const etag = first.headers.get('etag')!;
    const unchanged = await fetch(`${b.base}/api/transactions`, {
      headers: { cookie: customer, 'if-none-match': etag },
    });
    expect(unchanged.status).toBe(304);
    const events = await openEvents(b.base, customer);
    try {
      const saved = await call(a.base, staff, 'PATCH', `/api/admin/transactions/${card.id}`, {
        status: 'completed',
        paymentStatus: 'sent',
        expectedUpdatedAt: card.updatedAt,
      });
      expect(saved.status).toBe(200);
      await events.waitFor('transactions');
      await eventually(async () => {
        const poll = await fetch(`${b.base}/api/transactions`, {
          headers: { cookie: customer, 'if-none-match': etag },
        });
        return poll.status === 200 && (await poll.json())[0].status === 'completed';
      });
    } finally {
      events.close();
    }
  });

  it('a withdrawal through one moves the place of a card behind on the other (decision 155)', async () => {
    const ahead = await newCustomer(a.base);
    const behind = await newCustomer(a.base);
    const aheadCard = await submitCard(a.base, ahead);
    const behindCard = await submitCard(a.base, behind);
    // The seller behind is served by B: their list is kept there, with their place in it.
    const first = await call(b.base, behind, 'GET', '/api/transactions');
    const etag = first.headers.get('etag')!;
    const place = (await first.json())[0].queue.position as number;
    const kept = await fetch(`${b.base}/api/transactions`, {
      headers: { cookie: behind, 'if-none-match': etag },
    });
    expect(kept.status).toBe(304);
    const events = await openEvents(b.base, behind);
    try {
      const withdrawn = await call(
        a.base,
        ahead,
        'POST',
        `/api/transactions/${aheadCard.id}/withdraw`,
      );
      expect(withdrawn.status).toBe(200);
      // B read the queue again and told the seller behind, who changed nothing themselves.
      await events.waitFor('transactions');
      const poll = await fetch(`${b.base}/api/transactions`, {
        headers: { cookie: behind, 'if-none-match': etag },
      });
      expect(poll.status).toBe(200);
      expect((await poll.json())[0].queue.position).toBe(place - 1);
    } finally {
      events.close();
      // Out of the queue again, for the tests after this one that read its head.
      await call(a.base, behind, 'POST', `/api/transactions/${behindCard.id}/withdraw`);
    }
  });

  it('a role change and a deactivation through one reach the other’s sessions', async () => {
    const member = {
      email: `cluster.member.${Date.now().toString(36)}@example.com`,
      password: 'cluster member password',
    };
    const database = await openDatabase({ databaseUrl: cluster.databaseUrl });
    try {
      const { admin } = await upsertAdmin(database.db, member, 4);
      await database.db.update(admins).set({ role: 'reviewer' }).where(eq(admins.id, admin.id));
    } finally {
      await database.close();
    }
    const owner = await staffSignIn(a.base);
    const cookie = (await signInStaffOverHttp(b.base, member)).cookie;
    const me = await (await call(b.base, cookie, 'GET', '/api/auth/user')).json();
    expect(me.staffRole).toBe('reviewer');
    // B holds the session in memory: the reviewer reads the queue, and payouts are refused.
    expect((await call(b.base, cookie, 'GET', '/api/admin/transactions')).status).toBe(200);
    expect((await call(b.base, cookie, 'GET', '/api/admin/payouts')).status).toBe(403);

    const promoted = await call(a.base, owner, 'PATCH', `/api/admin/staff/${me.id}`, {
      role: 'finance',
    });
    expect(promoted.status).toBe(200);
    await eventually(
      async () => (await call(b.base, cookie, 'GET', '/api/admin/payouts')).status === 200,
    );

    const off = await call(a.base, owner, 'PATCH', `/api/admin/staff/${me.id}`, { active: false });
    expect(off.status).toBe(200);
    await eventually(
      async () => (await call(b.base, cookie, 'GET', '/api/auth/user')).status === 401,
    );
    expect((await call(b.base, cookie, 'GET', '/api/admin/payouts')).status).toBe(401);
  });

  it('staff on one instance see an upload made through the other', async () => {
    const staff = await staffSignIn(b.base);
    await call(b.base, staff, 'GET', '/api/admin/transactions');
    const events = await openEvents(b.base, staff);
    try {
      const customer = await newCustomer(a.base);
      const card = await submitCard(a.base, customer);
      await events.waitFor('queue');
      await eventually(async () => {
        const queue = await (await call(b.base, staff, 'GET', '/api/admin/transactions')).json();
        return queue[0]?.id === card.id;
      });
    } finally {
      events.close();
    }
  });

  it('started together on an empty database, applied each migration once', async () => {
    const journal = JSON.parse(
      readFileSync('src/server/db/migrations/meta/_journal.json', 'utf8'),
    ) as { entries: unknown[] };
    const database = await openDatabase({ databaseUrl: cluster.databaseUrl });
    try {
      const { rows } = await database.pool.query(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      expect(rows[0].n).toBe(journal.entries.length);
    } finally {
      await database.close();
    }
  });

  it('serve a photo uploaded through one from the other (one bucket, nothing on local disk)', async () => {
    const customer = await newCustomer(a.base);
    const image = readFileSync('tests/fixtures/card-front.jpg');
    const form = new FormData();
    form.append('file', new Blob([image], { type: 'image/jpeg' }), 'card-front.jpg');
    const upload = await fetch(`${a.base}/api/upload-card-image`, {
      method: 'POST',
      headers: { cookie: customer },
      body: form,
    });
    const { objectPath } = await upload.json();
    const served = await call(b.base, customer, 'GET', objectPath);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    const stranger = await newCustomer(b.base);
    expect((await call(a.base, stranger, 'GET', objectPath)).status).toBe(404);
    for (const instance of cluster.instances) {
      expect(existsSync(path.join(instance.dataDir, 'objects'))).toBe(false);
    }
  });

  it('count a limit across both: the 21st wrong password for one account is refused on either', async () => {
    const email = `guessed.${Date.now().toString(36)}@example.com`;
    const attempt = (base: string) =>
      fetch(`${base}/api/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'not the password' }),
      });
    for (let i = 0; i < 20; i++) expect((await attempt(i % 2 ? a.base : b.base)).status).toBe(401);
    const refusedA = await attempt(a.base);
    const refusedB = await attempt(b.base);
    expect([refusedA.status, refusedB.status]).toEqual([429, 429]);
    expect(Number(refusedB.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
