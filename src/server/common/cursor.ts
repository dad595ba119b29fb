import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { NEXT_CURSOR_HEADER } from '../../shared/admin';
import { badRequest } from './http-error';

/**
 * Keyset paging, newest first: a cursor is the last row's (created_at as Postgres text, id), so
 * the next page starts exactly after it at full microsecond precision, however deep the page.
 * A list that puts some rows first (conversations needing a reply) leads with that flag:
 * (flag, created_at, id).
 */
const encodeCursor = (key: (boolean | string)[]) =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

/** A timestamp as Postgres writes `timestamptz::text`, e.g. 2026-11-22 14:00:00.123456+00. */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?(?::(\d{2}))?$/;
/**
 * Postgres would refuse a day, an hour or a time-zone offset that does not exist (and answer an
 * error, not a page): each part is checked here.
 */
function isTimestamp(text: string) {
  const parts = TIMESTAMP.exec(text)
    ?.slice(1)
    .map((part) => Number(part ?? 0));
  if (!parts) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes, offsetSeconds] =
    parts as [number, number, number, number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1970 &&
    year <= 9999 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHours <= 15 &&
    offsetMinutes < 60 &&
    offsetSeconds < 60
  );
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A cursor's key: [createdAt, id], or [flag, createdAt, id] for a flagged list. */
function decodeCursor(cursor: string, flagged: false): { createdAt: string; id: string };
function decodeCursor(
  cursor: string,
  flagged: true,
): { flag: boolean; createdAt: string; id: string };
function decodeCursor(cursor: string, flagged: boolean) {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === (flagged ? 3 : 2)) {
      const [createdAt, id] = key.slice(flagged ? 1 : 0);
      if (
        (!flagged || typeof key[0] === 'boolean') &&
        typeof createdAt === 'string' &&
        isTimestamp(createdAt) &&
        typeof id === 'string' &&
        UUID.test(id)
      ) {
        return flagged ? { flag: key[0], createdAt, id } : { createdAt, id };
      }
    }
  } catch {}
  throw badRequest('Invalid cursor', 'cursor');
}

/** The rows after `cursor` in (createdAt, id) descending order. */
export function afterCursor(cursor: string, createdAt: PgColumn, id: PgColumn): SQL {
  const last = decodeCursor(cursor, false);
  return sql`(${createdAt}, ${id}) < (${last.createdAt}::timestamptz, ${last.id}::uuid)`;
}

/** The rows after `cursor` in (createdAt, id) ascending order: a queue read oldest first. */
export function afterCursorAscending(cursor: string, createdAt: PgColumn, id: PgColumn): SQL {
  const last = decodeCursor(cursor, false);
  return sql`(${createdAt}, ${id}) > (${last.createdAt}::timestamptz, ${last.id}::uuid)`;
}

/**
 * A list that leads with some rows oldest first, then the rest newest first, read as two queries
 * that each follow an index (the staff queue: cards waiting for a decision first). Answers the
 * condition each part adds after `cursor`: `undefined` for the whole part, `null` for a part the
 * cursor is already past. The rows' cursor carries the part: [in first, created_at, id].
 */
export function leadingParts(
  cursor: string | undefined,
  createdAt: PgColumn,
  id: PgColumn,
): { first: SQL | undefined | null; rest: SQL | undefined } {
  if (!cursor) return { first: undefined, rest: undefined };
  const last = decodeCursor(cursor, true);
  const key = sql`(${last.createdAt}::timestamptz, ${last.id}::uuid)`;
  return last.flag
    ? { first: sql`(${createdAt}, ${id}) > ${key}`, rest: undefined }
    : { first: null, rest: sql`(${createdAt}, ${id}) < ${key}` };
}

/**
 * The rows after `cursor` in a list that leads with the rows `first` marks, oldest first by
 * `firstOrder` (those waiting longest), then the rest newest first by `restOrder` (the support
 * queue, decision 073). The cursor is [in first, its time, id].
 */
export function afterLeadingCursor(
  cursor: string,
  first: SQL,
  firstOrder: PgColumn,
  restOrder: PgColumn,
  id: PgColumn,
): SQL {
  const last = decodeCursor(cursor, true);
  const at = sql`${last.createdAt}::timestamptz`;
  return last.flag
    ? sql`((${first}) and (${firstOrder}, ${id}) > (${at}, ${last.id}::uuid) or not (${first}))`
    : sql`(not (${first}) and (${restOrder}, ${id}) < (${at}, ${last.id}::uuid))`;
}

/** The column a paged query selects so its last row can become the next cursor. */
export const cursorColumn = (createdAt: PgColumn) => sql<string>`${createdAt}::text`;

/**
 * A page from a query that asked for `limit + 1` rows: the first `limit`, and a cursor when the
 * extra row shows there is more. Rows of a flagged list carry `cursorFlag` too.
 */
export function toPage<T extends { cursorCreatedAt: string; id: string; cursorFlag?: boolean }>(
  rows: T[],
  limit: number,
) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? encodeCursor([
          ...(last.cursorFlag === undefined ? [] : [last.cursorFlag]),
          last.cursorCreatedAt,
          last.id,
        ])
      : null;
  return {
    items: page.map(({ cursorCreatedAt: _cursor, cursorFlag: _flag, ...row }) => row),
    nextCursor,
  };
}

/**
 * A page as a route answers it: its items, with the next page's cursor in the
 * `x-next-cursor` header when there is more.
 */
export function sendPage<T>(reply: FastifyReply, page: { items: T[]; nextCursor: string | null }) {
  if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
  return page.items;
}
