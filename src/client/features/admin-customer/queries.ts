import type { CustomerNote, CustomerPage } from '@shared/customer-page';
import { queryOptions } from '@tanstack/react-query';
import { STAFF_FALLBACK_POLL_MS } from '@/features/admin-shared/queries';
import { apiRequest } from '@/lib/api';
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
