import type { QueryFunction } from '@tanstack/react-query';

/** A JSON object out of a body's text, or null (an empty body, a proxy's HTML page). */
function objectOf(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A request the server refused. Its message is the spec's text (section 8): the status code,
 * ': ' and the body text, or the status text when the body is empty, so every toast reads as
 * the spec says. Callers tell failures apart by `status` and the server's `code`, never by text.
 */
export class ApiError extends Error {
  /** The answer's JSON body (`{ message, errors?, code?, ... }`), or null when it was not JSON. */
  readonly body: Record<string, unknown> | null;
  /** The server's `code` (`reauth_required`, `claimed`...), when the body has one. */
  readonly code: string | undefined;
  /** The server's message for each field it refused (`errors`), or none. */
  readonly errors: Record<string, string>;

  constructor(
    readonly status: number,
    text: string,
  ) {
    super(`${status}: ${text}`);
    this.name = 'ApiError';
    this.body = objectOf(text);
    this.code = typeof this.body?.code === 'string' ? this.body.code : undefined;
    const errors = this.body?.errors;
    this.errors = errors && typeof errors === 'object' ? (errors as Record<string, string>) : {};
  }
}

/** Spec section 8: any non-OK response becomes an error (an `ApiError`). */
export async function throwIfNotOk(res: Response) {
  if (!res.ok) throw new ApiError(res.status, (await res.text()) || res.statusText);
}

/** Spec section 8: a 401 whose text says 'Unauthorized' means the session is gone. */
export function isUnauthorizedError(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 401 && error.message.includes('Unauthorized')
  );
}

/**
 * The server's `message` out of an error made by this client, for toasts; undefined when the
 * server gave none (an empty body, a proxy's HTML page), so the caller shows the spec's fallback.
 */
export function serverMessage(error: unknown): string | undefined {
  const message = error instanceof ApiError ? error.body?.message : undefined;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

/** JSON bodies go with a JSON content type; FormData goes without one (the browser sets it). */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const isForm = data instanceof FormData;
  const res = await fetch(url, {
    method,
    headers: data !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {},
    body: data === undefined ? undefined : isForm ? data : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey }) =>
    (await getRevalidated<T>(queryKey.join('/') as string, options.on401 === 'returnNull'))
      .data as T;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A list answered a page at a time: the rows, and the next page's cursor from its header. */
export async function getPage<T>(url: string): Promise<Page<T>> {
  const { data, nextCursor } = await getRevalidated<T[]>(url);
  return { items: data ?? [], nextCursor };
}

/** A JSON answer, revalidated with its ETag like every poll. */
export async function getJson<T>(url: string): Promise<T> {
  return (await getRevalidated<T>(url)).data as T;
}

interface Remembered {
  etag: string;
  data: unknown;
  nextCursor: string | null;
}
/** The last answer of each polled URL with its ETag (the browser cache stays no-store). */
const remembered = new Map<string, Remembered>();
const REMEMBER_AT_MOST = 200;

/** Forgets every remembered answer: after sign-out nothing of the last account is reused. */
export const forgetAnswers = () => remembered.clear();

/**
 * GET a JSON answer, sending back the ETag of the last answer for the same URL: an unchanged poll
 * comes back as 304 Not Modified with no body, and the last answer is reused. Failures throw as
 * the spec says, but for a 401 when `nullOn401` (the current-user query).
 */
async function getRevalidated<T>(
  url: string,
  nullOn401 = false,
): Promise<{ data: T | null; nextCursor: string | null }> {
  const last = remembered.get(url);
  const res = await fetch(url, {
    credentials: 'include',
    cache: 'no-store',
    headers: last ? { 'If-None-Match': last.etag } : undefined,
  });
  if (res.status === 304 && last) return { data: last.data as T, nextCursor: last.nextCursor };
  remembered.delete(url);
  if (res.status === 401 && nullOn401) {
    await res.text(); // read to the end, so the request completes
    return { data: null, nextCursor: null };
  }
  await throwIfNotOk(res);
  const data = (await res.json()) as T;
  const nextCursor = res.headers.get('x-next-cursor');
  const etag = res.headers.get('etag');
  if (etag) {
    remembered.set(url, { etag, data, nextCursor });
    if (remembered.size > REMEMBER_AT_MOST) remembered.delete(remembered.keys().next().value!);
  }
  return { data, nextCursor };
}
