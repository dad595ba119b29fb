import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app';
import type { AppConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { upsertAdmin } from '../../src/server/modules/auth/accounts';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database for one test file: an in-memory PGlite, or, when
 * DATABASE_URL is set, a new PostgreSQL database that is dropped afterwards.
 */
export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-api-'));
  const fresh = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : null;
  const database = await openDatabase({ databaseUrl: fresh?.url });
  await database.migrate();
  const config: AppConfig = {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: fresh?.url,
    sessionSecret: randomBytes(32).toString('hex'),
    bcryptCost: 4,
    trustProxy: false,
    logLevel: 'silent',
    ...overrides,
  };
  const app = await buildApp(config, database);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await fresh?.drop();
    },
  };
}

async function createPostgresDatabase(baseUrl: string) {
  const name = `cb_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export function sessionCookie(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((c) => c.name === 'cb.sid');
  return cookie?.value ? `cb.sid=${cookie.value}` : undefined;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${Date.now().toString(36)}.${++counter}@example.com`;

export interface SignedIn {
  cookie: string;
  user: { id: string; email: string; isAdmin: boolean };
}

export async function signUp(
  app: FastifyInstance,
  body: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {},
): Promise<SignedIn> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: {
      email: uniqueEmail(),
      password: 'correct horse battery',
      firstName: 'Casey',
      lastName: 'Customer',
      ...body,
    },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.body}`);
  return { cookie: sessionCookie(response)!, user: response.json() };
}

export async function signInStaff(
  testApp: TestApp,
  email = uniqueEmail('staff'),
  password = 'staff password 1',
): Promise<SignedIn> {
  await upsertAdmin(
    testApp.database.db,
    { email, password, firstName: 'Sam', lastName: 'Staff' },
    4,
  );
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/admin/signin',
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`staff sign-in failed: ${response.body}`);
  return { cookie: sessionCookie(response)!, user: response.json() };
}

/** app.inject with a session cookie. */
export function as(app: FastifyInstance, who: SignedIn | undefined, options: InjectOptions) {
  return app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), ...(who ? { cookie: who.cookie } : {}) },
  });
}
