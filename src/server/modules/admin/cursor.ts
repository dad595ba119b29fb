import { badRequest } from '../../plugins/errors';

/**
 * Keyset paging: a cursor is the last row's (created_at as Postgres text, id), so the next page
 * starts exactly after it at full microsecond precision, however deep the page.
 */
export const encodeCursor = (createdAt: string, id: string) =>
  Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof createdAt === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id)) {
      return { createdAt, id };
    }
  } catch {}
  throw badRequest('Invalid cursor', 'cursor');
}
