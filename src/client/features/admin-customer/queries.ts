import type { CustomerNote, CustomerPage } from '@shared/customer-page';
import { queryOptions } from '@tanstack/react-query';
import * as React from 'react';
import { STAFF_FALLBACK_POLL_MS } from '@/features/admin-shared/queries';
import { apiRequest, getJson } from '@/lib/api';
import { refresh } from '@/lib/queries';

/** Keyed under the users list: a change of the customers (a note, a standing) refreshes both. */
const USERS = '/api/admin/users';

export const customerPageQuery = (userId: string) =>
  queryOptions<CustomerPage>({
    queryKey: [USERS, userId],
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

export async function addCustomerNote(userId: string, body: string): Promise<CustomerNote> {
  const response = await apiRequest('POST', `${USERS}/${userId}/notes`, { body });
  return (await response.json()) as CustomerNote;
}

export const refreshCustomer = (userId: string) => refresh([USERS, userId]);

interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A paged section of the customer page: its first page as the page answered it, and the pages
 * after it fetched on "Show more" from `GET /api/admin/users/{id}/{section}?cursor=`.
 */
export function useMorePages<T extends { id: string }>(
  userId: string,
  section: 'transactions' | 'payouts' | 'notes',
  first: Paged<T>,
) {
  const [more, setMore] = React.useState<Paged<T> | null>(null);
  const [loading, setLoading] = React.useState(false);
  const [error, setError] = React.useState(false);
  const cursor = more ? more.nextCursor : first.nextCursor;
  const load = async () => {
    if (!cursor) return;
    setLoading(true);
    setError(false);
    try {
      const page = await getJson<Paged<T>>(
        `${USERS}/${userId}/${section}?cursor=${encodeURIComponent(cursor)}`,
      );
      setMore((before) => ({
        items: [...(before?.items ?? []), ...page.items],
        nextCursor: page.nextCursor,
      }));
    } catch {
      setError(true);
    } finally {
      setLoading(false);
    }
  };
  // The first page is read again as things change: the rows after it are kept once each.
  const seen = new Set(first.items.map((item) => item.id));
  const items = [...first.items, ...(more?.items ?? []).filter((item) => !seen.has(item.id))];
  return { items, hasMore: !!cursor, loading, error, load };
}
