import type { QueryFunction } from '@tanstack/react-query';

/**
 * Spec section 8: any non-OK response becomes an Error whose text is the status code, ': ' and
 * the body text (or the status text when the body is empty).
 */
export async function throwIfNotOk(res: Response) {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/**
 * The server's `message` out of an error made by this client, for toasts; undefined when the
 * server gave none (an empty body, a proxy's HTML page), so the caller shows the spec's fallback.
 */
/** The JSON body of a failed request's answer (an Error from apiRequest), or null. */
export function serverBody(error: unknown): Record<string, unknown> | null {
  if (!(error instanceof Error)) return null;
  try {
    const parsed: unknown = JSON.parse(error.message.replace(/^\d{3}: /, ''));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function serverMessage(error: unknown): string | undefined {
  const message = serverBody(error)?.message;
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
