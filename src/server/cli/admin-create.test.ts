import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { admins, recoveryCodes, sessions, twoFactor } from '../db/schema';
import { keyringOf, newDataKeyText, parseDataKey } from '../encryption';
import { newRecoveryCodes, startEnrolment } from '../modules/auth';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-cli-'));

/** `npm run admin:create -- ...args` on the embedded database in `dataDir`. */
function adminCreate(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [tsx, path.join(import.meta.dirname, 'admin-create.ts'), ...args],
    {
      env: { ...process.env, DATA_DIR: dataDir, BCRYPT_COST: '4', DATABASE_URL: '' },
      encoding: 'utf8',
    },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>) {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

// Each command is a process of its own opening the embedded database from disk: on a busy machine
// a few of them take longer than a request's 30 s.
describe('npm run admin:create', { timeout: 120_000 }, () => {
  it('creates staff, refuses a common password, and resets a second factor', async () => {
    const created = adminCreate('--email', 'ops@example.com', '--password', 'an ops passphrase 1');
    expect(created.output).toContain('Created staff account ops@example.com');
    expect(created.status).toBe(0);

    const common = adminCreate('--email', 'ops2@example.com', '--password', 'password123');
    expect(common.status).toBe(1);
    expect(common.output).toContain('This password is too common');

    // The staff member enrolled an authenticator and is signed in somewhere.
    const adminId = await withDatabase(async ({ db }) => {
      const [admin] = await db.select().from(admins).where(eq(admins.email, 'ops@example.com'));
      const account = { kind: 'admin' as const, id: admin!.id };
      await startEnrolment(db, keyringOf(parseDataKey(newDataKeyText())!), account, admin!.email);
      await db.update(twoFactor).set({ enabledAt: new Date() });
      await newRecoveryCodes(db, account);
      await db.insert(sessions).values({
        sid: 'a'.repeat(64),
        sess: {},
        expire: new Date(Date.now() + 60_000),
        accountKind: 'admin',
        accountId: admin!.id,
      });
      return admin!.id;
    });

    const reset = adminCreate('--email', 'OPS@example.com', '--reset-two-factor');
    expect(reset.status).toBe(0);
    expect(reset.output).toContain('Two-factor reset for ops@example.com');
    expect(reset.output).toContain('1 session ended');
    await withDatabase(async ({ db }) => {
      expect(await db.select().from(twoFactor).where(eq(twoFactor.accountId, adminId))).toEqual([]);
      expect(await db.select().from(recoveryCodes)).toEqual([]);
      expect(await db.select().from(sessions)).toEqual([]);
    });

    const unknown = adminCreate('--email', 'nobody@example.com', '--reset-two-factor');
    expect(unknown.status).toBe(1);
    expect(unknown.output).toContain('No staff account has the email nobody@example.com');
  }, 120_000); // four runs of the command, each opening the embedded database and migrating it
});
