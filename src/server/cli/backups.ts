import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { UPLOAD_TYPES } from '../../shared/upload-types';
import { type AppConfig, ConfigError } from '../config';
import {
  DatabaseLockedError,
  EMBEDDED_OWN_FILES,
  embeddedControlOf,
  openDatabase,
} from '../db/client';
import { OBJECT_KEY_PATTERN } from '../storage/object-storage';
import { openStorage } from '../storage/open-storage';

/**
 * npm run backup and npm run restore (decision 074). A backup folder holds the database (PGlite's
 * dump of its data folder, or pg_dump's custom format), every stored object under objects/, and
 * manifest.json, written last: the row count of every table in the database copy, and the size
 * and SHA-256 of every file. Objects are streamed both ways, never held whole in memory.
 */
export interface Manifest {
  format: 'cardbridge-backup';
  version: 1;
  /** When the database copy was taken: the recovery point. */
  takenAt: string;
  database: {
    kind: 'pglite' | 'postgres';
    file: string;
    bytes: number;
    sha256: string;
    /** Rows per table (`schema.table`) in the database copy itself. */
    tables: Record<string, number>;
  };
  objects: {
    count: number;
    bytes: number;
    items: { key: string; bytes: number; sha256: string }[];
  };
  /** How long the backup took, in seconds. */
  seconds: number;
}

export type Log = (line: string) => void;

const MANIFEST = 'manifest.json';
const PGLITE_FILE = 'database.tar.gz';
const POSTGRES_FILE = 'database.pgdump';
const embeddedDir = (config: AppConfig) => path.join(config.dataDir, 'db');

/** Writes a backup of the configured database and storage into `outDir` (absent or empty). */
export async function backup(config: AppConfig, outDir: string, log: Log): Promise<Manifest> {
  const started = performance.now();
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    throw new ConfigError(`${outDir} is not empty: back up into a new folder.`);
  }
  // Customers' data: only the operator's user may read it (files are written 0600 too).
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  await chmod(outDir, 0o700);
  await mkdir(path.join(outDir, 'objects'), { recursive: true, mode: 0o700 });

  // The database first, then the objects: every file a row of the copy names was stored before
  // the copy was taken, so it is in the backup (files stored since are extra, and swept later).
  const takenAt = new Date();
  const database = config.databaseUrl
    ? await dumpPostgres(config.databaseUrl, path.join(outDir, POSTGRES_FILE))
    : await dumpEmbedded(config, path.join(outDir, PGLITE_FILE));
  log(
    `database (${database.kind}): ${Object.values(database.tables).reduce((a, b) => a + b, 0)} rows in ${Object.keys(database.tables).length} tables, ${megabytes(database.bytes)}`,
  );

  const storage = openStorage(config);
  const items: Manifest['objects']['items'] = [];
  for await (const { key } of storage.list()) {
    const object = await storage.get(key);
    if (!object) continue; // deleted since it was listed
    const file = path.join(outDir, 'objects', key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const digest = hashing(object.body);
    await pipeline(digest.stream, createWriteStream(file, { mode: 0o600 }));
    items.push({ key, bytes: digest.bytes(), sha256: digest.hex() });
  }
  const objectBytes = items.reduce((sum, item) => sum + item.bytes, 0);
  log(`objects: ${items.length} files, ${megabytes(objectBytes)}`);

  const manifest: Manifest = {
    format: 'cardbridge-backup',
    version: 1,
    takenAt: takenAt.toISOString(),
    database,
    objects: { count: items.length, bytes: objectBytes, items },
    seconds: round((performance.now() - started) / 1000),
  };
  await writeFile(path.join(outDir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  return manifest;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Rows per table found in the restored database. */
  tables: Record<string, number>;
  seconds: number;
}

/**
 * Puts a backup back into the configured database and storage, which must both be empty: the
 * checksums are checked before and while it is copied, the row counts after.
 */
export async function restore(
  config: AppConfig,
  fromDir: string,
  log: Log,
): Promise<RestoreResult> {
  const started = performance.now();
  const manifest = await readManifest(fromDir);
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database.kind !== kind) {
    throw new ConfigError(
      `This backup is of ${manifest.database.kind === 'pglite' ? 'the embedded database' : 'PostgreSQL'}; the configuration names ${kind === 'pglite' ? 'the embedded database (DATABASE_URL is unset)' : 'PostgreSQL'}.`,
    );
  }
  const storage = openStorage(config);
  // Both targets are checked before anything is written.
  if (config.databaseUrl) await refuseNonEmptyPostgres(config.databaseUrl);
  else await refuseNonEmptyDirectory(embeddedDir(config));
  for await (const { key } of storage.list()) {
    throw new ConfigError(
      `The ${config.s3 ? `bucket ${config.s3.bucket}` : `folder ${path.join(config.dataDir, 'objects')}`} is not empty (it holds ${key}): restore into empty storage.`,
    );
  }

  const databaseFile = path.join(fromDir, manifest.database.file);
  const digest = hashing(createReadStream(databaseFile));
  await pipeline(digest.stream, new PassThrough().resume());
  if (digest.hex() !== manifest.database.sha256) {
    throw new ConfigError(`${databaseFile} does not match the manifest's checksum: not restored.`);
  }
  const tables = config.databaseUrl
    ? await restorePostgres(config.databaseUrl, databaseFile)
    : await restoreEmbedded(embeddedDir(config), databaseFile);
  log(`database (${kind}) restored`);

  let copied = 0;
  for (const item of manifest.objects.items) {
    if (!OBJECT_KEY_PATTERN.test(item.key)) throw new ConfigError(`Unexpected object ${item.key}`);
    const object = hashing(createReadStream(path.join(fromDir, 'objects', item.key)));
    await storage.put(item.key, object.stream, contentTypeOf(item.key));
    if (object.hex() !== item.sha256) {
      await storage.delete(item.key);
      throw new ConfigError(`objects/${item.key} does not match the manifest's checksum.`);
    }
    copied++;
  }
  log(`objects: ${copied} files restored`);

  const differing = Object.keys({ ...manifest.database.tables, ...tables }).filter(
    (table) => manifest.database.tables[table] !== tables[table],
  );
  if (differing.length > 0) {
    throw new ConfigError(
      `Row counts differ from the manifest in ${differing.map((t) => `${t} (${tables[t] ?? 0}, expected ${manifest.database.tables[t] ?? 0})`).join(', ')}`,
    );
  }
  return { manifest, tables, seconds: round((performance.now() - started) / 1000) };
}

export async function readManifest(fromDir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(fromDir, MANIFEST), 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `${path.join(fromDir, MANIFEST)} cannot be read (${(error as Error).message}): not a complete backup.`,
    );
  }
  if (manifest.format !== 'cardbridge-backup' || manifest.version !== 1) {
    throw new ConfigError(`${fromDir} is not a Cardbridge backup this version can restore.`);
  }
  return manifest;
}

// --- the embedded database ---

/**
 * PGlite's dump of its data folder: asked of the running server through its backup socket, or,
 * when no server runs, of the database opened here (the same worker, the same request).
 */
async function dumpEmbedded(config: AppConfig, file: string): Promise<Manifest['database']> {
  const dir = embeddedDir(config);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    throw new ConfigError(`No embedded database in ${dir}: nothing to back up.`);
  }
  const running = embeddedControlOf(dir);
  const answered = running ? await requestDump(running, file).catch(() => false) : false;
  if (!answered) {
    let database: Awaited<ReturnType<typeof openDatabase>>;
    try {
      database = await openDatabase({ pgliteDir: dir });
    } catch (error) {
      if (error instanceof DatabaseLockedError) {
        throw new ConfigError(
          `${error.message}\nIts server did not answer the backup request: is it an older version? Stop it and run the backup again.`,
        );
      }
      throw error;
    }
    try {
      await requestDump(database.control!, file);
    } finally {
      await database.close();
    }
  }
  const digest = hashing(createReadStream(file));
  await pipeline(digest.stream, new PassThrough().resume());
  // The counts are read from the dump itself, opened in memory: the backup is known to load.
  const copy = await PGlite.create({
    loadDataDir: new Blob([await readFile(file)]),
    extensions: { pg_trgm },
  });
  try {
    return {
      kind: 'pglite',
      file: PGLITE_FILE,
      bytes: digest.bytes(),
      sha256: digest.hex(),
      tables: await countRows((sql) => copy.query<Record<string, unknown>>(sql)),
    };
  } finally {
    await copy.close();
  }
}

function requestDump(control: string, file: string): Promise<true> {
  return new Promise((resolve, reject) => {
    const socket = connect(control);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => {
      try {
        const reply = JSON.parse(answer) as { ok?: true; error?: string };
        if (reply.ok) resolve(true);
        else reject(new Error(`the embedded database could not dump itself: ${reply.error}`));
      } catch {
        reject(new Error('the embedded database gave no answer to the backup request'));
      }
    });
    socket.write(`${JSON.stringify({ dump: path.resolve(file) })}\n`);
  });
}

async function refuseNonEmptyDirectory(dir: string) {
  const entries = await readdir(dir).catch(() => [] as string[]);
  if (entries.length > 0) {
    throw new ConfigError(
      `${dir} is not empty: restore into a new DATA_DIR (or move this one away first).`,
    );
  }
}

async function restoreEmbedded(dir: string, file: string) {
  await mkdir(dir, { recursive: true });
  const database = await PGlite.create({
    dataDir: dir,
    loadDataDir: new Blob([await readFile(file)]),
    extensions: { pg_trgm },
  });
  try {
    return await countRows((sql) => database.query<Record<string, unknown>>(sql));
  } finally {
    await database.close();
    // The copy carries the old server's lock and socket note: this folder has no server yet.
    for (const own of EMBEDDED_OWN_FILES) await rm(path.join(dir, own), { force: true });
  }
}

// --- PostgreSQL ---

/**
 * pg_dump in custom format, of the snapshot in which the rows are counted: the counts are those
 * of the copy, however many requests run meanwhile.
 */
async function dumpPostgres(url: string, file: string): Promise<Manifest['database']> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tool = await postgresTool('pg_dump', client);
    await client.query('begin isolation level repeatable read, read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id'))
      .rows[0]!.id;
    const tables = await countRows((sql) => client.query<Record<string, unknown>>(sql));
    await run(tool, ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`], url);
    await chmod(file, 0o600);
    await client.query('commit');
    const digest = hashing(createReadStream(file));
    await pipeline(digest.stream, new PassThrough().resume());
    return {
      kind: 'postgres',
      file: POSTGRES_FILE,
      bytes: digest.bytes(),
      sha256: digest.hex(),
      tables,
    };
  } finally {
    await client.end();
  }
}

async function refuseNonEmptyPostgres(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select table_schema || '.' || table_name as name from information_schema.tables
       where table_schema not in ('pg_catalog', 'information_schema') limit 1`,
    );
    if (rows.length > 0) {
      throw new ConfigError(
        `The database at DATABASE_URL is not empty (it has ${rows[0]!.name}): restore into a new, empty database.`,
      );
    }
  } finally {
    await client.end();
  }
}

async function restorePostgres(url: string, file: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tool = await postgresTool('pg_restore', client);
    // Owners and grants are the old server's: the tables belong to the role restoring them.
    await run(tool, ['--no-owner', '--no-privileges', '--exit-on-error', file], url);
    return await countRows((sql) => client.query<Record<string, unknown>>(sql));
  } finally {
    await client.end();
  }
}

/**
 * pg_dump or pg_restore at least as new as the server: on the PATH or in Debian's
 * /usr/lib/postgresql/<version>/bin, the newest found.
 */
async function postgresTool(name: 'pg_dump' | 'pg_restore', client: pg.Client) {
  const serverMajor = Math.floor(
    Number((await client.query<{ v: string }>('show server_version_num')).rows[0]!.v) / 10000,
  );
  const versioned = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').map((v) =>
        path.join('/usr/lib/postgresql', v, 'bin', name),
      )
    : [];
  const onPath = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, name));
  const found = [...onPath, ...versioned]
    .filter((candidate) => existsSync(candidate))
    .map((candidate) => {
      const out = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout ?? '';
      return { candidate, major: Number(/(\d+)(?:\.\d+)?/.exec(out)?.[1] ?? 0) };
    })
    .sort((a, b) => b.major - a.major);
  const best = found[0];
  if (!best) {
    throw new ConfigError(
      `${name} was not found: install the PostgreSQL client tools (postgresql-client-${serverMajor}).`,
    );
  }
  if (best.major < serverMajor) {
    throw new ConfigError(
      `${name} ${best.major} is older than the server (PostgreSQL ${serverMajor}): install postgresql-client-${serverMajor}.`,
    );
  }
  return best.candidate;
}

/** Runs a PostgreSQL tool on `url`, the password passed in the environment, never the arguments. */
function run(tool: string, args: string[], url: string): Promise<void> {
  const target = new URL(url);
  const password = decodeURIComponent(target.password);
  target.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${target.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      errors += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new ConfigError(`${path.basename(tool)} failed (${code}): ${errors.trim()}`));
    });
  });
}

// --- shared ---

/** Rows per table in the schemas the app owns (public, and drizzle's migration log). */
async function countRows(
  query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>,
): Promise<Record<string, number>> {
  const { rows } = await query(
    `select table_schema as schema, table_name as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle')
     order by 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const name = `${row.schema}.${row.name}`;
    const quoted = `"${String(row.schema)}"."${String(row.name).replaceAll('"', '""')}"`;
    const result = await query(`select count(*)::int as n from ${quoted}`);
    counts[name] = Number(result.rows[0]!.n);
  }
  return counts;
}

/** A stream passed through as it is, its bytes counted and hashed on the way. */
function hashing(source: Readable) {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  source.on('error', (error) => stream.destroy(error));
  source.pipe(stream);
  let hex: string | undefined;
  return { stream, bytes: () => bytes, hex: () => (hex ??= hash.digest('hex')) };
}

function contentTypeOf(key: string) {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  return (
    UPLOAD_TYPES.find((t) => t.extension === extension)?.contentType ?? 'application/octet-stream'
  );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const round = (seconds: number) => Math.round(seconds * 100) / 100;
