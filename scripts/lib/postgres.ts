import { randomUUID } from 'node:crypto';
import pg from 'pg';

async function onServer(baseUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the PostgreSQL server of `baseUrl`: named `name` (dropped first if it
 * is left over from a run that was cut short), or a fresh random name; a copy of the database
 * `template` when one is named (tests copy one migrated per run). `drop()` removes it.
 */
export async function createPostgresDatabase(baseUrl: string, name?: string, template?: string) {
  const database = name ?? `cb_test_${randomUUID().replaceAll('-', '')}`;
  if (name) await onServer(baseUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await onServer(
    baseUrl,
    template ? `CREATE DATABASE ${database} TEMPLATE ${template}` : `CREATE DATABASE ${database}`,
  );
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: () => onServer(baseUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
  };
}
