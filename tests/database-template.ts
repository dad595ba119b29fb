import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { TestProject } from 'vitest/node';
import { createPostgresDatabase } from '../scripts/lib/postgres';
import { openDatabase } from '../src/server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The migrated database each test file's database starts from: a dump of an embedded
     * database's data folder, or, with DATABASE_URL, the name of a PostgreSQL database to copy.
     */
    testDatabaseTemplate: string;
  }
}

/**
 * Vitest's global setup: one migrated database per run, which every test file's database copies
 * (tests/api/helpers.ts). A fresh embedded database spends about 4 s creating its cluster and 1 s
 * migrating, once per test file; a copy of a migrated one starts in about half a second.
 */
export default async function setup(project: TestProject) {
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const template = await createPostgresDatabase(baseUrl);
    const database = await openDatabase({ databaseUrl: template.url });
    await database.migrate();
    await database.close();
    project.provide('testDatabaseTemplate', new URL(template.url).pathname.slice(1));
    return () => template.drop();
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-template-'));
  const dataDir = path.join(dir, 'db');
  const database = await openDatabase({ pgliteDir: dataDir });
  await database.migrate();
  await database.close();
  const embedded = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  const dump = await embedded.dumpDataDir('none');
  await embedded.close();
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('testDatabaseTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
