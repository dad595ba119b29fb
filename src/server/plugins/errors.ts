import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError, NOT_FOUND_ISSUE } from '../common/http-error';
import { securityHeaders } from './security-headers';

export const TRY_AGAIN = 'This changed at the same moment somewhere else. Please try again.';

/** PostgreSQL errors that mean "two writes met", not "the server is broken". */
const CONFLICTS = new Set([
  '23505', // unique_violation
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
]);

interface DatabaseError extends Error {
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
}

const databaseErrorOf = (error: unknown): DatabaseError | null => {
  const cause = error instanceof DrizzleQueryError ? error.cause : error;
  const candidate = cause as DatabaseError | undefined;
  return typeof candidate?.code === 'string' && typeof candidate.routine === 'string'
    ? candidate
    : null;
};

/**
 * What a failed request leaves in the log. A failed query is logged by its SQL (placeholders
 * only), PostgreSQL's code and the constraint or column, never its parameters nor PostgreSQL's
 * `detail`, which quote the values: a password hash, an account number.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  const database = databaseErrorOf(error);
  if (!database) {
    const e = error as Error;
    return { type: e?.name, message: e?.message, stack: e?.stack };
  }
  return {
    type: 'DatabaseError',
    code: database.code,
    // Input quoted in a message ("invalid input syntax for type uuid: \"...\"") is cut.
    message: database.message.replace(/: ".*$/s, ': "…"'),
    constraint: database.constraint,
    table: database.table,
    column: database.column,
    routine: database.routine,
    query: error instanceof DrizzleQueryError ? error.query : undefined,
  };
}

/** A body larger than this that was refused unread is not read: the connection closes. */
const UNREAD_BODY_LIMIT = 64 * 1024;

/** Upload endpoints carry the message in `error` too, whatever refused the request (PRODUCT.md). */
const UPLOAD_PATHS = new Set(['/api/upload-card-image', '/api/chat/upload-attachment']);

function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  const request = reply.request;
  if (UPLOAD_PATHS.has(request.url.split('?')[0]!) && !('error' in body)) {
    body = { ...body, error: body.message };
  }
  if (
    !request.raw.complete &&
    Number(request.headers['content-length'] ?? UNREAD_BODY_LIMIT + 1) > UNREAD_BODY_LIMIT
  ) {
    reply.header('Connection', 'close');
  }
  return reply.code(status).send(body);
}

/**
 * One error handler (fastify/demo): schema failures become 400 `{ message, errors }` with the
 * first message of each field; 4xx keep their message; writes that met another write at the
 * same moment get 409; 5xx never carry internals.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A path id that cannot name a row (idParams): not found, as a row that is not there.
      const missing = error.validation.find(
        (issue) =>
          (issue.params as { params?: { answer?: number } } | undefined)?.params?.answer ===
          NOT_FOUND_ISSUE.answer,
      );
      if (missing) return send(reply, 404, { message: missing.message });
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        if (field && !(field in errors)) errors[field] = issue.message ?? 'Invalid value';
      }
      const message = Object.values(errors)[0] ?? 'Invalid request body';
      return send(reply, 400, { message, errors });
    }
    if (error instanceof HttpError) {
      // A 5xx of our own says what is wrong to the client; the operator reads it in the log.
      if (error.statusCode >= 500) request.log.error({ status: error.statusCode }, error.message);
      return send(reply, error.statusCode, {
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
      });
    }
    const database = databaseErrorOf(error);
    if (database?.code && CONFLICTS.has(database.code)) {
      request.log.warn({ err: loggableError(error) }, 'concurrent write refused');
      return send(reply, 409, { message: TRY_AGAIN });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (!database && status >= 400 && status < 500) {
      return send(reply, status, { message: error.message });
    }
    request.log.error({ err: loggableError(error) }, 'request failed');
    return send(reply, 500, { message: 'Internal Server Error' });
  });
}

/**
 * Errors the framework meets before a route runs (a URL that does not decode): the same JSON
 * shape and the same headers as every other answer.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  reply.headers(securityHeaders(request)).header('Cache-Control', 'no-store');
  return send(reply, status, {
    message:
      status === 400
        ? 'Bad request: the URL could not be read'
        : (STATUS_TEXT[status] ?? 'Bad request'),
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/**
 * Errors of the HTTP parser itself (a URL or headers too long, a malformed request line): Node
 * answers them before Fastify sees a request, so they are written here, as JSON with the
 * security headers, and the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) return socket.destroy();
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'HPE_URI_TOO_LONG' || /uri.*too long/i.test(error.message)
        ? 414
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
  const body = JSON.stringify({ message: STATUS_TEXT[status] });
  const headers = Object.entries({
    ...securityHeaders({ protocol: 'http' } as FastifyRequest),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    Connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${headers}\r\n\r\n${body}`);
}

/** An `Expect` header other than 100-continue: 417 in our shape (Node's own has no body). */
export function refuseExpectation(_request: IncomingMessage, response: ServerResponse) {
  response.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    connection: 'close',
    ...securityHeaders({ protocol: 'http' } as FastifyRequest),
  });
  response.end(JSON.stringify({ message: 'Expectation not supported' }));
}
