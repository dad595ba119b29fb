/**
 * npm run bench:backup: how long npm run backup and npm run restore take on a sizeable install,
 * for docs/operations.md's recovery time. Seeds 2,000 customers and BENCH_TRANSACTIONS cards
 * (100,000 by default) with BENCH_FILES photos of 200 kB on local disk, on the embedded database
 * (or PostgreSQL with DATABASE_URL), then times both commands as an operator runs them.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../src/server/common/accounts';
import { openDatabase } from '../src/server/db/client';
import { LocalDiskStorage } from '../src/server/storage/local-disk-storage';
import { createPostgresDatabase } from './lib/postgres';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
const FILES = Number(process.env.BENCH_FILES ?? 1_000);
const USERS = 2_000;

const root = mkdtempSync(path.join(tmpdir(), 'cb-bench-backup-'));
const source = path.join(root, 'source');
const restored = path.join(root, 'restored');
const backupDir = path.join(root, 'backup');
const baseUrl = process.env.DATABASE_URL;
const sourceDb = baseUrl ? await createPostgresDatabase(baseUrl) : null;
const targetDb = baseUrl ? await createPostgresDatabase(baseUrl) : null;

try {
  const database = await openDatabase({
    databaseUrl: sourceDb?.url,
    pgliteDir: path.join(source, 'db'),
  });
  await database.migrate();
  console.log(`Seeding ${USERS} users, ${TRANSACTIONS.toLocaleString()} cards, ${FILES} files...`);
  const hash = await hashPassword('bench password', 4);
  await database.db.execute(sql`
    insert into users (email, password, first_name, last_name)
    select 'customer' || g || '@example.com', ${hash}, 'First' || g, 'Last' || g
    from generate_series(1, ${USERS}) g`);
  await database.db.execute(sql`
    insert into payment_methods (user_id, type, account_name, identifier, is_default)
    select id, 'paypal', first_name || ' ' || last_name, email, true from users`);
  await database.db.execute(sql`
    with u as (select row_number() over (order by id) as n, id from users),
         pm as (select user_id, id from payment_methods)
    insert into transactions (user_id, card_type, card_value, card_condition, card_format,
                              image_urls, status, payment_method_id, payout_rate, expected_payout)
    select u.id, 'Amazon', 100, 'brand_new', 'egift',
           array['/objects/cards/' || gen_random_uuid() || '.jpg'], 'completed', pm.id, 0.88, 88
    from generate_series(1, ${TRANSACTIONS}) g
    join u on u.n = 1 + (g % ${USERS})
    join pm on pm.user_id = u.id`);
  await database.close();
  const storage = new LocalDiskStorage(path.join(source, 'objects'));
  const photo = randomBytes(200 * 1024);
  for (let i = 0; i < FILES; i++) {
    await storage.put(`cards/${randomUUID()}.jpg`, Readable.from([photo]));
  }

  const operator = (name: string, args: string[], env: Record<string, string>) => {
    const started = performance.now();
    const result = spawnSync('npm', ['run', '--silent', name, '--', ...args], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`${name} failed: ${result.stdout}${result.stderr}`);
    console.log(result.stdout.trim());
    return seconds;
  };
  const backupSeconds = operator('backup', ['--out', backupDir], {
    DATA_DIR: source,
    DATABASE_URL: sourceDb?.url ?? '',
  });
  const restoreSeconds = operator('restore', ['--from', backupDir], {
    DATA_DIR: restored,
    DATABASE_URL: targetDb?.url ?? '',
  });
  console.log(
    `\n${baseUrl ? 'PostgreSQL' : 'Embedded database'}, ${TRANSACTIONS.toLocaleString()} cards, ${FILES} files of 200 kB: backup ${backupSeconds.toFixed(1)} s, restore ${restoreSeconds.toFixed(1)} s (wall clock, npm included)`,
  );
} finally {
  await sourceDb?.drop();
  await targetDb?.drop();
  rmSync(root, { recursive: true, force: true });
}
