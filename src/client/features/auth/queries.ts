import type { CurrentUser } from '@shared/auth-schemas';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api';

/** The current user; null when signed out. Not retried on failure (spec section 4). */
export const currentUserQuery = () =>
  queryOptions<CurrentUser | null>({
    queryKey: ['/api/auth/user'],
    queryFn: getQueryFn<CurrentUser | null>({ on401: 'returnNull' }),
    retry: false,
  });
