import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import bcrypt from 'bcrypt';
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN_EMAIL, ensureFirstStaffAccount } from '../../src/server/bootstrap';
import { DatabaseLockedError, openDatabase } from '../../src/server/db/client';
import { admins } from '../../src/server/db/schema';

const run = promisify(execFile);
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'cb-ops-'));

describe('the embedded database', () => {
  it('refuses a second opener of the same folder and frees it on close', async () => {
    const dir = tempDir();
    const first = await openDatabase({ pgliteDir: dir });
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(DatabaseLockedError);
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/is in use by process \d+/);
    await first.close();
    const second = await openDatabase({ pgliteDir: dir });
    await second.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'cardbridge.lock'), '999999999');
    const database = await openDatabase({ pgliteDir: dir });
    await database.close();
  });

  it('creates one staff account with a random password on first start only', async () => {
    const database = await openDatabase({});
    await database.migrate();
    const created = await ensureFirstStaffAccount(database, 4);
    expect(created?.email).toBe(BOOTSTRAP_ADMIN_EMAIL);
    expect(created!.password.length).toBeGreaterThanOrEqual(20);
    const [row] = await database.db.select().from(admins);
    expect(await bcrypt.compare(created!.password, row!.password)).toBe(true);
    expect(await ensureFirstStaffAccount(database, 4)).toBeNull();
    await database.close();

    const again = await openDatabase({});
    await again.migrate();
    const other = await ensureFirstStaffAccount(again, 4);
    expect(other!.password).not.toBe(created!.password);
    await again.close();
  });
});

describe('npm run admin:create', () => {
  const cli = (dataDir: string, ...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/server/cli/admin-create.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, BCRYPT_COST: '4', DATABASE_URL: '' },
    });

  it('creates a staff account, then resets its password', async () => {
    const dataDir = tempDir();
    const created = await cli(
      dataDir,
      '--email',
      'Boss@Example.com',
      '--password',
      'first password',
      '--first-name',
      'Pat',
    );
    expect(created.stdout).toContain('Created staff account boss@example.com');
    const reset = await cli(
      dataDir,
      '--email',
      'boss@example.com',
      '--password',
      'second password',
    );
    expect(reset.stdout).toContain('Updated staff account boss@example.com');

    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    const rows = await database.db.select().from(admins);
    await database.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.firstName).toBe('Pat');
    expect(await bcrypt.compare('second password', rows[0]!.password)).toBe(true);
  });

  it('refuses bad input and a running server with a clear message', async () => {
    const dataDir = tempDir();
    await expect(cli(dataDir, '--email', 'x@example.com')).rejects.toMatchObject({
      stderr: expect.stringContaining('Usage: npm run admin:create'),
    });
    await expect(
      cli(dataDir, '--email', 'x@example.com', '--password', 'short'),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('Password must be at least 8 characters'),
    });
    const server = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      await expect(
        cli(dataDir, '--email', 'x@example.com', '--password', 'long enough'),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('only be changed while the server is stopped'),
      });
    } finally {
      await server.close();
    }
  });
});
