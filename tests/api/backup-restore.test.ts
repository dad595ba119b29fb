import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../scripts/lib/postgres';
import { buildApp } from '../../src/server/app';
import { type Manifest, readManifest } from '../../src/server/cli/backups';
import { openDatabase } from '../../src/server/db/client';
import { openStorage } from '../../src/server/storage/open-storage';
import { type S3TestServer, startS3Server } from '../storage/s3-server';
import {
  as,
  createTestApp,
  fixture,
  type SignedIn,
  signInStaff,
  signUp,
  submitCard,
  type TestApp,
  uniqueEmail,
} from './helpers';

/**
 * The restore drill (issue 22, item 7): seed, back up while requests run, wipe, restore into
 * fresh stores, start, and a customer signs in and downloads their photo. On the embedded
 * database with local files; with DATABASE_URL, on PostgreSQL with an S3-protocol server.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const cli = (name: string) =>
  path.resolve(import.meta.dirname, '../../src/server/cli', `${name}.ts`);
const PASSWORD = 'correct horse battery';

/** An operator command in its own process (never blocking this one's requests). */
function command(name: string, args: string[], env: Record<string, string>) {
  return new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [tsx, cli(name), ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    child.on('close', (status) => resolve({ status, output }));
  });
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe(`backup and restore drill (${onPostgres ? 'PostgreSQL + S3' : 'embedded database + local files'})`, () => {
  it('restores a copy taken while requests run: counts match, a customer gets their photo', async () => {
    let sourceBucket: S3TestServer | undefined;
    if (onPostgres) {
      sourceBucket = await startS3Server('cardbridge-source');
      cleanups.push(() => sourceBucket!.stop());
    }
    const source: TestApp = await createTestApp(sourceBucket ? { s3: sourceBucket.config } : {}, {
      onDisk: true,
    });
    let sourceOpen = true;
    cleanups.push(async () => sourceOpen && source.close());
    const sourceEnv = {
      DATA_DIR: source.config.dataDir,
      DATABASE_URL: source.config.databaseUrl ?? '',
      ...(sourceBucket?.env ?? {}),
    };

    // Seed: a staff member with an authenticator (a sealed secret), customers with cards and
    // photos, chat, tickets.
    const staffEmail = uniqueEmail('staff');
    await signInStaff(source, staffEmail);
    const customers: { who: SignedIn; email: string; photo: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const who = await signUp(source.app, { password: PASSWORD });
      const card = await submitCard(source.app, who);
      expect(card.statusCode).toBe(201);
      const photo = (card.json() as { imageUrls: string[] }).imageUrls[0]!;
      await as(source.app, who, {
        method: 'POST',
        url: '/api/chat/messages',
        payload: { message: `Hello from customer ${i}` },
      });
      await as(source.app, who, {
        method: 'POST',
        url: '/api/support-tickets',
        payload: { email: who.user.email, subject: 'Where is my payout?', message: `Ticket ${i}` },
      });
      customers.push({ who, email: who.user.email, photo });
    }

    // Back up while customers keep writing (sign-ups, cards with photos, chat).
    let writing = true;
    let writes = 0;
    const traffic = (async () => {
      while (writing) {
        const who = await signUp(source.app, { password: PASSWORD });
        await submitCard(source.app, who);
        await as(source.app, who, {
          method: 'POST',
          url: '/api/chat/messages',
          payload: { message: 'written during the backup' },
        });
        writes++;
      }
    })();
    const backupDir = mkdtempSync(path.join(tmpdir(), 'cb-backup-'));
    const backedUp = await command('backup', ['--out', backupDir], sourceEnv);
    const writesDuringBackup = writes;
    writing = false;
    await traffic;
    expect(backedUp.output).toContain('Backup written to');
    expect(backedUp.status).toBe(0);
    expect(writesDuringBackup).toBeGreaterThan(0);

    const manifest: Manifest = await readManifest(backupDir);
    // Customers' data: readable by the operator's user alone.
    expect(statSync(backupDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(backupDir, 'manifest.json')).mode & 0o777).toBe(0o600);
    expect(manifest.database.kind).toBe(onPostgres ? 'postgres' : 'pglite');
    expect(manifest.database.tables['public.users']).toBeGreaterThanOrEqual(3);
    expect(manifest.database.tables['public.chat_messages']).toBeGreaterThanOrEqual(3);
    expect(manifest.database.tables['public.support_tickets']).toBe(3);
    expect(manifest.objects.count).toBeGreaterThanOrEqual(3);
    expect(manifest.objects.items.every((o) => /^[0-9a-f]{64}$/.test(o.sha256))).toBe(true);

    // Wipe: the source's database and files are gone.
    const keyring = source.config.encryption;
    await source.close();
    sourceOpen = false;
    await sourceBucket?.stop();

    // Restore into fresh stores.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-restored-'));
    const target = onPostgres ? await createPostgresDatabase(process.env.DATABASE_URL!) : null;
    if (target) cleanups.push(() => target.drop());
    let targetBucket: S3TestServer | undefined;
    if (onPostgres) {
      targetBucket = await startS3Server('cardbridge-restored');
      cleanups.push(() => targetBucket!.stop());
    }
    const targetEnv = {
      DATA_DIR: dataDir,
      DATABASE_URL: target?.url ?? '',
      ...(targetBucket?.env ?? {}),
    };
    const restored = await command('restore', ['--from', backupDir], targetEnv);
    expect(restored.output).toContain('as the manifest counts them');
    expect(restored.status).toBe(0);

    // Into something not empty, it refuses and changes nothing.
    const again = await command('restore', ['--from', backupDir], targetEnv);
    expect(again.status).toBe(1);
    expect(again.output).toMatch(/is not empty/);

    // Start on the restored stores.
    const database = await openDatabase({
      databaseUrl: target?.url,
      pgliteDir: target ? undefined : path.join(dataDir, 'db'),
    });
    cleanups.push(() => database.close());
    await database.migrate();
    const config = {
      ...source.config,
      dataDir,
      databaseUrl: target?.url,
      s3: targetBucket?.config,
      encryption: keyring,
    };
    const app = await buildApp(config, database);
    cleanups.push(() => app.close());
    await app.ready();

    // The counts of the restored database are the manifest's.
    for (const [table, count] of Object.entries(manifest.database.tables)) {
      const [schema, name] = table.split('.');
      const { rows } = await database.pool.query<{ n: number }>(
        `select count(*)::int as n from "${schema}"."${name}"`,
      );
      expect({ table, count: rows[0]!.n }).toEqual({ table, count });
    }
    let objects = 0;
    for await (const _ of openStorage(config).list()) objects++;
    expect(objects).toBe(manifest.objects.count);

    // A customer signs in and downloads their photo.
    const { email, photo } = customers[1]!;
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = signIn.cookies.find((c) => c.name === 'cb.sid')!;
    const download = await app.inject({
      method: 'GET',
      url: photo,
      headers: { cookie: `cb.sid=${cookie.value}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(fixture('card-front.jpg'))).toBe(true);
    // Staff sign in with their authenticator: the sealed secret came back, and opens with the
    // install's key (kept apart from the backup).
    const restoredApp = { app, database, now: Date.now } as unknown as TestApp;
    expect((await signInStaff(restoredApp, staffEmail)).user.email).toBe(staffEmail);
    console.log(
      `restore drill: backup ${manifest.seconds} s, ${restored.output.match(/in ([\d.]+) s/)?.[0]} restore, ${writesDuringBackup} writes during the backup`,
    );
  }, 180_000);

  // The embedded database on disk, whichever database the rest of the suite runs on.
  it('backs up the embedded database while no server runs', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-stopped-'));
    const stopped = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    await stopped.migrate();
    await stopped.pool.query(
      "insert into users (email, password, first_name, last_name) values ('stopped@example.com', 'x', 'Stopped', 'Server')",
    );
    await stopped.close();
    const out = mkdtempSync(path.join(tmpdir(), 'cb-backup-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const done = await command('backup', ['--out', out], env);
    expect(done.status).toBe(0);
    expect((await readManifest(out)).database.tables['public.users']).toBe(1);
    // Never over an earlier backup.
    const refused = await command('backup', ['--out', out], env);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain('is not empty: back up into a new folder');
  }, 60_000);
});
