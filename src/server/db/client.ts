import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Migrations are committed SQL in ./migrations beside this file; the build copies them next to
 * the bundled server, so the same relative path works from src and from dist.
 */
const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseLockedError extends Error {}

export interface OpenOptions {
  databaseUrl?: string;
  /** Folder for the embedded database; omitted means an in-memory database (tests). */
  pgliteDir?: string;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A pooled client that errors while idle must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  const release = options.pgliteDir ? lockDirectory(options.pgliteDir) : () => {};
  try {
    // pg_trgm backs the staff search (trigram indexes for ILIKE '%...%').
    const client = new PGlite({ dataDir: options.pgliteDir, extensions: { pg_trgm } });
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      migrate: () => migratePglite(db as never, { migrationsFolder }),
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * PGlite is a single-process database: two processes on one folder corrupt it. A lock file
 * holding the owner's pid keeps the second one out; a lock left by a dead process is taken over.
 */
function lockDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, 'cardbridge.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {}
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      if (owner && isAlive(owner)) {
        throw new DatabaseLockedError(
          `The embedded database in ${dir} is in use by process ${owner}. Stop that process first (only one process may open it).`,
        );
      }
      unlinkSync(lockFile);
    }
  }
  throw new DatabaseLockedError(`Could not lock the embedded database in ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
