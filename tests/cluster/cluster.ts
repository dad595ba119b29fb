import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../../scripts/lib/postgres';
import { type BuiltServer, startBuiltServer } from '../../scripts/lib/processes';
import { upsertAdmin } from '../../src/server/common/accounts';
import { openDatabase } from '../../src/server/db/client';
import { type S3TestServer, startS3Server } from '../storage/s3-server';

export const STAFF = { email: 'cluster.staff@example.com', password: 'cluster staff password' };

export interface Instance extends BuiltServer {
  dataDir: string;
}

export interface Cluster {
  instances: Instance[];
  databaseUrl: string;
  bucket: S3TestServer;
  stop(): Promise<void>;
}

/**
 * Starts `count` built servers (dist/server/main.js) at once on one new, empty PostgreSQL
 * database and one S3 bucket, as several instances behind a load balancer would run: same
 * database, same bucket, same session secret; `env` is added to each instance's.
 */
export async function startCluster(count = 2, env: Record<string, string> = {}): Promise<Cluster> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('npm run test:cluster needs DATABASE_URL (a PostgreSQL server)');
  // An empty database and one bucket: the instances start together and migrate it themselves.
  const fresh = await createPostgresDatabase(baseUrl);
  const bucket = await startS3Server();

  const secret = randomBytes(32).toString('hex');
  // One data key for every instance: each opens the TOTP secrets another sealed.
  const dataKey = randomBytes(32).toString('hex');
  const dataDirs: string[] = [];
  const instances = await Promise.all(
    Array.from({ length: count }, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-cluster-'));
      dataDirs.push(dataDir);
      const server = await startBuiltServer({
        NODE_ENV: 'production',
        DATABASE_URL: fresh.url,
        SESSION_SECRET: secret,
        DATA_ENCRYPTION_KEY: dataKey,
        DATA_DIR: dataDir,
        BCRYPT_COST: '12',
        LOG_LEVEL: 'warn',
        // Every test client is 127.0.0.1: the per-address limits would stop the suite itself.
        LIMIT_SIGNUPS_PER_ADDRESS: '1000',
        LIMIT_SIGNIN_FAILURES_PER_ADDRESS: '1000',
        // The tests pay cards of accounts made a moment before (decision 072's holds off).
        PAYOUT_HOLD_NEW_METHOD_HOURS: '0',
        PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
        ...bucket.env,
        ...env,
      });
      return { ...server, dataDir };
    }),
  );
  const database = await openDatabase({ databaseUrl: fresh.url });
  await upsertAdmin(database.db, STAFF, 4);
  await database.close();
  return {
    instances,
    databaseUrl: fresh.url,
    bucket,
    async stop() {
      await Promise.all(instances.map((i) => i.stop()));
      await fresh.drop();
      await bucket.stop();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A signed-in client of one instance (a cookie jar of one cookie). */
export async function signIn(base: string, path: string, body: object) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

export function call(base: string, cookie: string, method: string, url: string, body?: unknown) {
  return fetch(base + url, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * Asks until `check` passes. No clock of its own: what never happens fails at the test's timeout,
 * and how fast it happens is measured by the benchmarks (npm run bench:streams), not here.
 */
export async function eventually(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}
