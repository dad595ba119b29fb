import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  apiKeys,
  auditLog,
  paymentMethods,
  transactions,
  uploads,
  users,
  webhookEndpoints,
} from '../../src/server/db/schema';
import { eraseSettledAccounts, expireExports } from '../../src/server/modules/privacy/commands';
import { setUpAppWithMail } from './builders';
import {
  addPaymentMethod,
  as,
  fixture,
  multipart,
  reviewCard,
  type SignedIn,
  sessionFor,
  signInAs,
  signUp,
  submitCard,
  uniqueEmail,
} from './helpers';

/** Issue 22, items 1 and 2 (decision 083): a copy of one's data, and deletion. */
const { mail, t, staff } = setUpAppWithMail();
const PASSWORD = 'correct horse battery';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Every entry of a ZIP, by name, read whole (the test's ZIPs are small). */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A customer with something of every kind: a card with a photo, chat with a file, a ticket. */
async function busyCustomer(names: { firstName: string; lastName: string }, chatText: string) {
  const customer = await signUp(t.app, { email: uniqueEmail('busy'), ...names });
  const card = (await submitCard(t.app, customer, { cardCode: 'BUSY-CODE-0001-9876' })).json();
  const attached = await as(t.app, customer, {
    method: 'POST',
    url: '/api/chat/upload-attachment',
    ...multipart(fixture('card-back.png'), 'receipt.png', 'image/png'),
  });
  expect(attached.statusCode, attached.body).toBe(200);
  const sent = await as(t.app, customer, {
    method: 'POST',
    url: '/api/chat/messages',
    payload: { message: chatText, attachmentUrl: attached.json().url },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const ticket = await as(t.app, customer, {
    method: 'POST',
    url: '/api/support-tickets',
    payload: {
      email: customer.user.email,
      subject: `Ticket of ${names.lastName}`,
      message: `${chatText} (ticket)`,
    },
  });
  expect(ticket.statusCode, ticket.body).toBe(201);
  return { customer, card: card as { id: string }, chatFile: attached.json().url as string };
}

async function waitForExport(who: SignedIn, id: string) {
  for (let i = 0; i < 100; i++) {
    const list = (await as(t.app, who, { method: 'GET', url: '/api/account/exports' })).json();
    const found = list.find((e: { id: string }) => e.id === id);
    if (found?.status === 'ready' || found?.status === 'failed') return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the export was not built');
}

const download = (who: SignedIn | undefined, id: string) =>
  as(t.app, who, { method: 'GET', url: `/api/account/exports/${id}/download` });

describe('export my data', () => {
  it('builds one ZIP with every kind of data and every photo, for its owner alone, for 24 hours', async () => {
    const { customer, card, chatFile } = await busyCustomer(
      { firstName: 'Ximena', lastName: 'Exportova' },
      'chat text for the export',
    );
    await addPaymentMethod(t.app, customer, {
      type: 'bank_transfer',
      accountName: 'Ximena Exportova',
      identifier: 'Checking',
      accountNumber: '000123456789',
      bankName: 'First Bank',
      routingNumber: '021000021',
    });
    // An identity document, sealed at rest: the export holds it opened.
    const document = await as(t.app, customer, {
      method: 'POST',
      url: '/api/upload-verification-document',
      ...multipart(fixture('card-back.png'), 'id.png', 'image/png'),
    });
    expect(document.statusCode, document.body).toBe(200);
    // A note staff left about the customer (decision 144): in the export, without its author.
    const noted = await as(t.app, staff, {
      method: 'POST',
      url: `/api/admin/users/${customer.user.id}/notes`,
      payload: { body: 'Staff note for the export' },
    });
    expect(noted.statusCode, noted.body).toBe(201);
    // Asked for several times at once: one export.
    const asked = await Promise.all(
      Array.from({ length: 4 }, () =>
        as(t.app, customer, { method: 'POST', url: '/api/account/export' }),
      ),
    );
    expect(asked.map((r) => r.statusCode).sort()).toEqual([202, 429, 429, 429]);
    const created = asked.find((r) => r.statusCode === 202)!.json();
    expect(created).toEqual({ id: expect.any(String), status: 'pending' });
    expect(asked.find((r) => r.statusCode === 429)!.json().code).toBe('export_limit');

    const ready = await waitForExport(customer, created.id);
    expect(ready.status).toBe('ready');
    expect(new Date(ready.expiresAt).getTime() - new Date(ready.readyAt).getTime()).toBe(DAY_MS);
    await mail.waitFor(customer.user.email, /Your Cardbridge data export is ready/);

    const got = await download(customer, created.id);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/zip');
    expect(Number(got.headers['content-length'])).toBe(got.rawPayload.length);
    expect(ready.size).toBe(got.rawPayload.length);
    const entries = await unzip(got.rawPayload);
    for (const section of [
      'account',
      'payment-methods',
      'cards',
      'chat',
      'tickets',
      'notifications',
      'sessions',
      'verification',
      'staff-notes',
    ]) {
      expect(entries.has(`${section}.json`), section).toBe(true);
    }
    expect(JSON.parse(entries.get('staff-notes.json')!.toString('utf8'))).toEqual([
      { note: 'Staff note for the export', createdAt: expect.any(String) },
    ]);
    const json = (name: string) => JSON.parse(entries.get(name)!.toString('utf8'));
    expect(json('account.json').email).toBe(customer.user.email);
    expect(JSON.stringify(json('payment-methods.json'))).toContain('000123456789');
    const [exported] = json('cards.json');
    expect(exported.id).toBe(card.id);
    expect(exported.cardCodeLast4).toBe('9876');
    expect(exported.statusHistory.length).toBeGreaterThan(0);
    expect(JSON.stringify(json('cards.json'))).not.toContain('BUSY-CODE');
    expect(json('chat.json')[0].message).toBe('chat text for the export');
    expect(json('tickets.json')[0].subject).toBe('Ticket of Exportova');
    expect(json('sessions.json').signedIn.length).toBeGreaterThan(0);
    // The seller's statement (issue 39), as JSON and as the CSV the Statement page downloads.
    expect(json('statement.json')).toEqual([]);
    expect(entries.get('statement.csv')!.toString('utf8')).toBe(
      '\uFEFF"Date","Description","Money In","Money Out","Balance","Card"\r\n',
    );
    const all = entries.get('account.json')!.toString() + entries.get('sessions.json')!.toString();
    expect(all).not.toMatch(/\$2[aby]\$|password/i);
    // Every photo, byte for byte.
    const cardImage = (
      await t.database.db
        .select({ imageUrls: transactions.imageUrls })
        .from(transactions)
        .where(eq(transactions.id, card.id))
    )[0]!.imageUrls[0]!;
    const cardEntry = entries.get(`files/${cardImage.replace('/objects/', '')}`);
    expect(cardEntry && sha(cardEntry)).toBe(sha(fixture('card-front.jpg')));
    const chatEntry = entries.get(`files/${chatFile.replace('/objects/', '')}`);
    expect(chatEntry && sha(chatEntry)).toBe(sha(fixture('card-back.png')));
    const documentKey = document.json().objectPath.replace('/objects/', '');
    const documentEntry = entries.get(`files/${documentKey}`);
    // An identity document as it was stored: re-encoded (decision 111), its row holding its hash.
    const [documentRow] = await t.database.db
      .select({ sha256: uploads.sha256 })
      .from(uploads)
      .where(eq(uploads.key, documentKey));
    expect(documentEntry && sha(documentEntry)).toBe(documentRow!.sha256);

    // Another customer, staff and the signed-out learn nothing of it.
    const stranger = await signUp(t.app);
    expect((await download(stranger, created.id)).statusCode).toBe(404);
    expect((await download(staff, created.id)).statusCode).toBe(403);
    expect((await download(undefined, created.id)).statusCode).toBe(401);
    const strangerList = await as(t.app, stranger, { method: 'GET', url: '/api/account/exports' });
    expect(strangerList.json()).toEqual([]);

    // After 24 hours: 410, and the file is deleted.
    t.advance(DAY_MS + 1000);
    try {
      // The old session has lapsed by now: the customer signs in again.
      const later = {
        ...customer,
        cookie: await sessionFor(t, { kind: 'user', id: customer.user.id }),
      };
      expect((await download(later, created.id)).statusCode).toBe(410);
      expect(await t.app.run(expireExports)).toBeGreaterThanOrEqual(1);
      expect(await t.app.storage.get(`exports/${created.id}.zip`)).toBeNull();
      expect((await download(later, created.id)).statusCode).toBe(410);
      const listed = (
        await as(t.app, later, { method: 'GET', url: '/api/account/exports' })
      ).json();
      expect(listed[0]).toMatchObject({ id: created.id, status: 'expired' });
      // A new day, a new export.
      const again = await as(t.app, later, { method: 'POST', url: '/api/account/export' });
      expect(again.statusCode).toBe(202);
      expect((await waitForExport(later, again.json().id)).status).toBe('ready');
    } finally {
      t.advance(-(DAY_MS + 1000));
    }
  });
});

/** Every row of every table, as text: what a search of the whole database sees. */
async function wholeDatabase() {
  const { rows } = await t.database.db.execute<{ name: string }>(sql`
    select table_name as name from information_schema.tables
     where table_schema = 'public' and table_type = 'BASE TABLE'`);
  let text = '';
  for (const { name } of rows) {
    const dump = await t.database.db.execute<{ row: string }>(
      sql`select t::text as row from ${sql.identifier(name)} t`,
    );
    text += dump.rows.map((r) => r.row).join('\n');
  }
  return text.toLowerCase();
}

/** Every stored object's bytes, as Latin-1 text. */
function wholeStorage() {
  const root = path.join(t.config.dataDir, 'objects');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else files.push(file);
    }
  };
  walk(root);
  return {
    keys: files.map((f) => path.relative(root, f)),
    text: files
      .map((f) => readFileSync(f).toString('latin1'))
      .join('\n')
      .toLowerCase(),
  };
}

describe('delete my account', () => {
  it('is refused while a card is open, scheduled, then done once it settles; nothing personal is left', async () => {
    const lastName = `Erasmus${Date.now().toString(36)}`;
    const chatText = `my private chat ${Date.now().toString(36)}`;
    const { customer, card, chatFile } = await busyCustomer(
      { firstName: 'Dorota', lastName },
      chatText,
    );
    const email = customer.user.email;
    const del = (payload: object) =>
      as(t.app, customer, { method: 'DELETE', url: '/api/account', payload });

    expect((await del({ password: 'wrong password' })).statusCode).toBe(400);
    const refused = await del({ password: PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'account_has_open_items',
      items: [{ transactionId: card.id, reason: 'under_review' }],
    });
    const scheduled = await del({ password: PASSWORD, whenSettled: true });
    expect(scheduled.statusCode).toBe(202);
    expect(scheduled.json()).toMatchObject({ deleted: false, scheduled: true });
    // Not yet: the card is still open.
    expect(await t.app.run(eraseSettledAccounts)).toBe(0);

    // Staff approve and pay the card: nothing is open any more.
    const paid = await reviewCard(t.app, staff, card.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [before] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));
    const auditBefore = await t.database.db.$count(auditLog);
    expect(await t.app.run(eraseSettledAccounts)).toBe(1);
    await mail.waitFor(email, /Your Cardbridge account was deleted/);

    // Signed out everywhere; the address and password sign in to nothing.
    expect((await as(t.app, customer, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(
      401,
    );
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(401);

    // The money records stay, pointing at the anonymous account.
    const [after] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));
    expect(after).toMatchObject({
      userId: customer.user.id,
      cardValue: before!.cardValue,
      paymentAmount: '91.00',
      paymentStatus: 'sent',
      expectedPayout: before!.expectedPayout,
      notes: null,
    });
    expect(await t.database.db.$count(auditLog)).toBe(auditBefore + 1);
    const [account] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.id, customer.user.id));
    expect(account!.email).toBe(`deleted-${customer.user.id}@invalid`);
    expect(account!.deletedAt).not.toBeNull();
    const methods = await t.database.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.userId, customer.user.id));
    expect(methods.map((m) => [m.accountName, m.identifier])).toEqual([['', '.com']]);

    // A search of the whole database and storage finds neither the name, the email nor the chat.
    const everything = await wholeDatabase();
    for (const secret of [lastName, email, chatText]) {
      expect(everything.includes(secret.toLowerCase()), secret).toBe(false);
    }
    const storage = wholeStorage();
    expect(storage.keys).not.toContain(chatFile.replace('/objects/', ''));
    for (const secret of [lastName, email, chatText]) {
      expect(storage.text.includes(secret.toLowerCase()), secret).toBe(false);
    }
    // The same request again: the account is gone.
    expect((await del({ password: PASSWORD })).statusCode).toBe(401);
  });

  it('deletes at once when nothing is open, and clears the session cookie', async () => {
    const customer = await signUp(t.app);
    const done = await as(t.app, customer, {
      method: 'DELETE',
      url: '/api/account',
      payload: { password: PASSWORD },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ deleted: true });
    expect(String(done.headers['set-cookie'])).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it('staff erase a customer who asked by email: owners only, audited', async () => {
    const customer = await signUp(t.app);
    const support = await signInAs(t, 'support');
    const erase = (who: SignedIn) =>
      as(t.app, who, { method: 'POST', url: `/api/admin/users/${customer.user.id}/erase` });
    const denied = await erase(support);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('forbidden_role');
    const owner = await signInAs(t, 'owner');
    const done = await erase(owner);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ deleted: true });
    const [row] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, customer.user.id));
    expect(row).toMatchObject({ action: 'erase', actorKind: 'admin' });
    expect((await erase(owner)).statusCode).toBe(404);
    await mail.waitFor(customer.user.email, /account was deleted/);
  });

  it('keeps the audit log append-only but for the anonymous address', async () => {
    await expect(t.database.pool.query(`update audit_log set action = 'changed'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(t.database.pool.query('delete from audit_log')).rejects.toThrow(/append-only/);
    await expect(
      t.database.pool.query(`update audit_log set actor_email = 'someone@example.com'`),
    ).rejects.toThrow(/append-only/);
  });
});

describe('export my data: the partner API (issue 42)', () => {
  it("holds the seller's API keys and webhook endpoints, never a key's hash or an endpoint's secret", async () => {
    const seller = await signUp(t.app);
    await t.database.db
      .update(users)
      .set({ verificationLevel: 2 })
      .where(eq(users.id, seller.user.id));
    const created = await as(t.app, seller, {
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Warehouse', scopes: ['cards:read', 'cards:write'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id: keyId, key } = created.json() as { id: string; key: string };
    const revoked = await as(t.app, seller, { method: 'DELETE', url: `/api/api-keys/${keyId}` });
    expect(revoked.statusCode).toBe(200);
    const allowed = t.app.config.webhooks.allowPrivate;
    t.app.config.webhooks.allowPrivate = true;
    let secret: string;
    try {
      const endpoint = await as(t.app, seller, {
        method: 'POST',
        url: '/api/webhook-endpoints',
        payload: { url: 'https://127.0.0.1/cardbridge-hooks', events: ['card.updated'] },
      });
      expect(endpoint.statusCode, endpoint.body).toBe(201);
      secret = endpoint.json().secret;
    } finally {
      t.app.config.webhooks.allowPrivate = allowed;
    }
    const [sealed] = await t.database.db
      .select({ secret: webhookEndpoints.secret })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, seller.user.id));

    const asked = await as(t.app, seller, { method: 'POST', url: '/api/account/export' });
    expect(asked.statusCode, asked.body).toBe(202);
    const ready = await waitForExport(seller, asked.json().id);
    expect(ready.status).toBe('ready');
    const entries = await unzip((await download(seller, asked.json().id)).rawPayload);
    const partner = JSON.parse(entries.get('partner-api.json')!.toString('utf8'));
    expect(partner.apiKeys).toEqual([
      {
        id: keyId,
        name: 'Warehouse',
        last4: key.slice(-4),
        scopes: ['cards:read', 'cards:write'],
        createdAt: expect.any(String),
        expiresAt: null,
        lastUsedAt: null,
        lastUsedIp: null,
        revokedAt: expect.any(String),
      },
    ]);
    expect(partner.webhookEndpoints).toEqual([
      {
        id: expect.any(String),
        url: 'https://127.0.0.1/cardbridge-hooks',
        events: ['card.updated'],
        createdAt: expect.any(String),
        disabledAt: null,
      },
    ]);
    // Nothing in the whole archive opens anything: no key, no hash of it, no secret.
    const everything = Buffer.concat([...entries.values()]).toString('latin1');
    const keyHash = createHash('sha256').update(key).digest('hex');
    for (const secretThing of [key, keyHash, secret!, sealed!.secret]) {
      expect(everything).not.toContain(secretThing);
    }
    expect(JSON.parse(entries.get('README.json')!.toString()).sections).toContain('partner-api');

    // Deleting the account erases both.
    const deleted = await as(t.app, seller, {
      method: 'DELETE',
      url: '/api/account',
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const table of [apiKeys, webhookEndpoints]) {
      const left = await t.database.db
        .select({ id: table.id })
        .from(table)
        .where(eq(table.userId, seller.user.id));
      expect(left).toEqual([]);
    }
  });
});
