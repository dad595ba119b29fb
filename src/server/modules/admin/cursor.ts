import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from '../../plugins/errors';

/**
 * Keyset paging, newest first: a cursor is the last row's (created_at as Postgres text, id), so
 * the next page starts exactly after it at full microsecond precision, however deep the page.
 */
const encodeCursor = (createdAt: string, id: string) =>
  Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof createdAt === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id)) {
      return { createdAt, id };
    }
  } catch {}
  throw badRequest('Invalid cursor', 'cursor');
}

/** The rows after `cursor` in (createdAt, id) descending order. */
export function afterCursor(cursor: string, createdAt: PgColumn, id: PgColumn): SQL {
  const last = decodeCursor(cursor);
  return sql`(${createdAt}, ${id}) < (${last.createdAt}::timestamptz, ${last.id}::uuid)`;
}

/** The column a paged query selects so its last row can become the next cursor. */
export const cursorColumn = (createdAt: PgColumn) => sql<string>`${createdAt}::text`;

/**
 * A page from a query that asked for `limit + 1` rows: the first `limit`, and a cursor when the
 * extra row shows there is more.
 */
export function toPage<T extends { cursorCreatedAt: string; id: string }>(
  rows: T[],
  limit: number,
) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last ? encodeCursor(last.cursorCreatedAt, last.id) : null;
  return { items: page.map(({ cursorCreatedAt: _cursor, ...row }) => row), nextCursor };
}
