import { z } from 'zod';
import { isUuid } from '../../shared/ids';
import type { Capability } from '../../shared/staff-roles';

/** An error whose message is meant for the client: thrown by routes, answered as-is. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: Record<string, string>,
    /** Extra body fields, e.g. `error` on upload endpoints (PRODUCT.md). */
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) =>
  new HttpError(400, message, field ? { [field]: message } : undefined);
export const notFound = (message = 'Not found') => new HttpError(404, message);

/** How a path id that is not a UUID is marked among a schema's issues: answered 404, not 400. */
export const NOT_FOUND_ISSUE = { answer: 404 } as const;

/**
 * The params of a route under `/:id`: anything but a UUID cannot name a row, so the error handler
 * answers it 404 with `message` (the route's own not-found message), before any query.
 */
export const idParams = (message: string) =>
  z.object({ id: z.string().refine(isUuid, { message, params: NOT_FOUND_ISSUE }) });

/**
 * A staff route on one row: the capability it needs, and `:id` params answering 404 with
 * `message` for a non-UUID, beside the rest of its schema.
 */
export const onId = <S extends object>(capability: Capability, message: string, schema: S) => ({
  config: { capability },
  schema: { params: idParams(message), ...schema },
});

/**
 * The one row a command's `select … for update` locked, or a 404 with `message` when there is
 * none: `const card = await lockOr404(tx.select().from(t).where(…).for('update'), 'Not found')`.
 */
export async function lockOr404<Row>(query: PromiseLike<Row[]>, message: string): Promise<Row> {
  const [row] = await query;
  if (!row) throw notFound(message);
  return row;
}
