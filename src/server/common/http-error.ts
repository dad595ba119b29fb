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
