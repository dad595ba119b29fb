import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  pool: pg.Pool;
  /** SQL statements sent since the database was opened (tests and metrics read it). */
  readonly statements: number;
  /**
   * The embedded database on disk: the socket its worker takes backup requests on
   * (`embeddedControlOf` finds it from another process). Absent on PostgreSQL and in memory.
   */
  control?: string;
  migrate(): Promise<void>;
  /**
   * Opens every connection the pool may hold, at once (PostgreSQL; the embedded database's one is
   * open already): the first burst of requests after a start does not wait for them one by one.
   * Fails with the first connection refused, with every other one given back.
   */
  connectAll(): Promise<void>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * Migrations are committed SQL in ./migrations beside this file; the build copies them (and the
 * worker) next to the bundled server, so the same relative paths work from src and from dist.
 */
const migrationsFolder = path.join(here, 'migrations');
const workerFile = path.join(here, 'pglite-worker.mjs');

export class DatabaseLockedError extends Error {}

/** Beside the lock: where the running server's embedded database takes backup requests. */
const CONTROL_FILE = 'cardbridge.control';
/** Files of ours in the embedded database's folder, which a copy of the folder leaves out. */
export const EMBEDDED_OWN_FILES = ['cardbridge.lock', CONTROL_FILE];

/** The backup socket of the server running on the embedded database in `dir`, if one is. */
export function embeddedControlOf(dir: string): string | null {
  try {
    return readFileSync(path.join(dir, CONTROL_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export interface OpenOptions {
  databaseUrl?: string;
  /** Folder for the embedded database; omitted means an in-memory database (tests). */
  pgliteDir?: string;
  /**
   * An in-memory embedded database starts from this dump of a data folder (PGlite's
   * `dumpDataDir`, uncompressed): tests start from one made and migrated once per run.
   */
  pgliteFrom?: string;
  /** Connections to PostgreSQL (the embedded database always has one). */
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
    });
    return wrap('postgres', pool, async () => pool.end());
  }
  const release = options.pgliteDir ? lockDirectory(options.pgliteDir) : () => {};
  try {
    const embedded = await startEmbedded(options.pgliteDir, options.pgliteFrom);
    // One connection: PGlite is a single Postgres session, so a transaction holds it and other
    // queries wait for it, as they would for PGlite's own lock.
    const pool = new pg.Pool({
      host: embedded.socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      max: 1,
      idleTimeoutMillis: 0,
      // PGlite is one session whatever the connection: a connection that replaces a discarded
      // one would find the old one's prepared statements and fail to prepare its own ("already
      // exists").
      onConnect: async (client) => {
        await client.query('DEALLOCATE ALL');
      },
    });
    const controlFile = options.pgliteDir ? path.join(options.pgliteDir, CONTROL_FILE) : null;
    if (controlFile && embedded.control)
      writeFileSync(controlFile, embedded.control, { mode: 0o600 });
    const database = wrap('pglite', pool, async () => {
      await pool.end();
      await embedded.stop();
      if (controlFile) rmSync(controlFile, { force: true });
      release();
    });
    // Set on the object itself: a copy would freeze its `statements` getter.
    if (embedded.control) database.control = embedded.control;
    return database;
  } catch (error) {
    release();
    throw error;
  }
}

function wrap(kind: Database['kind'], pool: pg.Pool, close: () => Promise<void>): Database {
  // A pooled client that errors while idle must not crash the process.
  pool.on('error', () => {});
  let statements = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };
  });
  const db = drizzle(pool, { schema });
  return {
    db,
    kind,
    pool,
    get statements() {
      return statements;
    },
    // The embedded database has one process (and one connection): nothing to race.
    migrate: () =>
      kind === 'postgres' ? migrateOnce(db, pool) : migrate(db, { migrationsFolder }),
    async connectAll() {
      // Every connection taken at once (one in use waits for its query), then given back, those
      // opened even when another is refused (too many clients): its error is thrown after.
      const opened = await Promise.allSettled(
        Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()),
      );
      for (const result of opened) if (result.status === 'fulfilled') result.value.release();
      const refused = opened.find((result) => result.status === 'rejected');
      if (refused) throw refused.reason;
    },
    close,
  };
}

/** Any number; the same in every instance, so they queue on it. */
const MIGRATION_LOCK = 7_424_521_001;

/**
 * Applies the migrations once however many instances start together: each takes a PostgreSQL
 * advisory lock on one connection first, so the second waits and then finds nothing to do.
 */
async function migrateOnce(db: Db, pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(db, { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** Starts PGlite in a worker thread, serving the wire protocol on a socket only we can reach. */
async function startEmbedded(dataDir: string | undefined, loadFrom: string | undefined) {
  // A short private folder: Unix socket paths are limited to about 100 bytes.
  const socketDir = mkdtempSync(path.join(tmpdir(), 'cb-pglite-'));
  const control = dataDir ? path.join(socketDir, 'control') : undefined;
  const worker = new Worker(workerFile, {
    workerData: {
      dataDir,
      loadFrom,
      socketPath: path.join(socketDir, '.s.PGSQL.5432'),
      controlPath: control,
    },
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      exited = true;
      rmSync(socketDir, { recursive: true, force: true });
      resolve();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`The embedded database stopped (${code})`)));
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.on('error', (error) => {
    // The database is gone: nothing this process answers can be trusted any more.
    console.error('The embedded database failed:', error);
    process.exit(1);
  });
  return {
    socketDir,
    control,
    async stop() {
      if (exited) return;
      worker.postMessage('close');
      const timer = setTimeout(() => void worker.terminate(), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/**
 * PGlite is a single-process database: two processes on one folder corrupt it. A lock file
 * holding the owner's pid and start time keeps the second one out. A lock is stale, and taken
 * over, when that process is gone, or when its pid now belongs to another process (a reboot or
 * a container restart hands pids out again): the start time tells them apart.
 */
function lockDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, 'cardbridge.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, `${process.pid} ${processStart(process.pid) ?? ''}`.trim());
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {}
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const [pid, started] = readFileSync(lockFile, 'utf8').trim().split(/\s+/);
      const owner = Number.parseInt(pid ?? '', 10);
      if (owner && isOwnerRunning(owner, started)) {
        throw new DatabaseLockedError(
          `The embedded database in ${dir} is in use by process ${owner}. Stop that process first (only one process may open it).`,
        );
      }
      unlinkSync(lockFile);
    }
  }
  throw new DatabaseLockedError(`Could not lock the embedded database in ${dir}`);
}

/** When `pid` started (clock ticks since boot, from /proc), or null where that is not known. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (command) " come the fields from the 3rd on; the 22nd is the start time.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isOwnerRunning(pid: number, started: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // Alive: the lock's own process only if it started when the lock says (where /proc tells).
  const now = processStart(pid);
  return !started || now === null || now === started;
}
