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

/** The server's `message` out of an error made by this client, for toasts. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const body = error.message.replace(/^\d{3}: /, '');
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : undefined;
  } catch {
    return body || undefined;
  }
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
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join('/') as string, { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A list answered a page at a time: the rows, and the next page's cursor from its header. */
export async function getPage<T>(url: string): Promise<Page<T>> {
  const res = await fetch(url, { credentials: 'include' });
  await throwIfNotOk(res);
  return { items: (await res.json()) as T[], nextCursor: res.headers.get('x-next-cursor') };
}
