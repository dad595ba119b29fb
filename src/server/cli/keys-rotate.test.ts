import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { twoFactor, users, webhookEndpoints } from '../db/schema';
import { keyringOf, openText, parseDataKey, sealText } from '../encryption';
import { findTwoFactor } from '../modules/auth';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-keys-'));
const keyFile = path.join(dataDir, 'data-encryption-key');

/** `npm run keys:rotate -- ...args` on the embedded database in `dataDir`. */
function keysRotate(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [tsx, path.join(import.meta.dirname, 'keys-rotate.ts'), ...args],
    { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>) {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

const keysInFile = () =>
  readFileSync(keyFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => parseDataKey(line)!);

// Each command is a process of its own opening the embedded database from disk: on a busy machine
// a few of them take longer than a request's 30 s.
describe('npm run keys:rotate', { timeout: 120_000 }, () => {
  it('re-seals every secret under a new key, and the file keeps that key alone', async () => {
    // First run: makes the key and the database; nothing sealed yet.
    const first = keysRotate();
    expect(first.output).toContain('two-factor secrets: 0 re-sealed');
    expect(first.status).toBe(0);
    const [oldKey] = keysInFile();

    const account = { kind: 'admin' as const, id: '00000000-0000-4000-8000-000000000001' };
    const other = { kind: 'admin' as const, id: '00000000-0000-4000-8000-000000000002' };
    await withDb((db) =>
      db.insert(twoFactor).values([
        { accountKind: 'admin', accountId: account.id, secret: 'JBSWY3DPEHPK3PXP' },
        {
          accountKind: 'admin',
          accountId: other.id,
          secret: sealText(keyringOf(oldKey!), 'two_factor.secret', 'KRSXG5CTMVRXEZLU'),
        },
      ]),
    );

    const rotated = keysRotate('--new-key');
    expect(rotated.status).toBe(0);
    expect(rotated.output).toContain('two-factor secrets: 2 re-sealed');
    const keys = keysInFile();
    expect(keys).toHaveLength(1);
    expect(keys[0]!.id).not.toBe(oldKey!.id);
    const keyring = keyringOf(keys[0]!);
    await withDb(async (db) => {
      const rows = await db.select().from(twoFactor);
      expect(rows.every((r) => r.secret.split('.')[1] === keys[0]!.id)).toBe(true);
      expect((await findTwoFactor(db, keyring, account))!.secret).toBe('JBSWY3DPEHPK3PXP');
      expect((await findTwoFactor(db, keyring, other))!.secret).toBe('KRSXG5CTMVRXEZLU');
    });

    // Run again (as after an interruption): nothing left to do.
    expect(keysRotate().output).toContain('two-factor secrets: 0 re-sealed');
  });

  it("re-seals webhook endpoints' signing secrets, the previous one a rotation keeps too", async () => {
    const [oldKey] = keysInFile();
    const oldRing = keyringOf(oldKey!);
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const previous = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    await withDb(async (db) => {
      const [seller] = await db
        .insert(users)
        .values({ email: 'partner@example.com', password: 'x', verificationLevel: 2 })
        .returning({ id: users.id });
      await db.insert(webhookEndpoints).values([
        {
          userId: seller!.id,
          url: 'https://example.com/a',
          events: ['card.updated'],
          secret: sealText(oldRing, 'webhook.secret', secret),
          previousSecret: sealText(oldRing, 'webhook.secret', previous),
          previousSecretUntil: new Date(Date.now() + 3600_000),
        },
        {
          userId: seller!.id,
          url: 'https://example.com/b',
          events: ['payout.updated'],
          secret: sealText(oldRing, 'webhook.secret', previous),
        },
      ]);
    });

    const rotated = keysRotate('--new-key');
    expect(rotated.status, rotated.output).toBe(0);
    expect(rotated.output).toContain('webhook signing secrets: 2 re-sealed');
    const [newKey] = keysInFile();
    expect(newKey!.id).not.toBe(oldKey!.id);
    const newRing = keyringOf(newKey!);
    await withDb(async (db) => {
      const rows = await db.select().from(webhookEndpoints).orderBy(webhookEndpoints.url);
      for (const sealed of [rows[0]!.secret, rows[0]!.previousSecret!, rows[1]!.secret]) {
        expect(sealed.split('.')[1]).toBe(newKey!.id);
      }
      expect(openText(newRing, 'webhook.secret', rows[0]!.secret)).toBe(secret);
      expect(openText(newRing, 'webhook.secret', rows[0]!.previousSecret!)).toBe(previous);
      expect(openText(newRing, 'webhook.secret', rows[1]!.secret)).toBe(previous);
      expect(rows[1]!.previousSecret).toBeNull();
    });
    expect(keysRotate().output).toContain('webhook signing secrets: 0 re-sealed');
  });

  it('names the missing key when a secret is sealed under a key it does not have', async () => {
    const stranger = parseDataKey('cd'.repeat(32))!;
    await withDb((db) =>
      db.insert(twoFactor).values({
        accountKind: 'admin',
        accountId: '00000000-0000-4000-8000-000000000003',
        secret: sealText(keyringOf(stranger), 'two_factor.secret', 'JBSWY3DPEHPK3PXP'),
      }),
    );
    const refused = keysRotate();
    expect(refused.status).toBe(1);
    expect(refused.output).toContain('add it to DATA_ENCRYPTION_PREVIOUS_KEYS');
  });
});
