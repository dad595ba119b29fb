import type { CurrentUser } from '@shared/auth-schemas';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest, forgetAnswers, getQueryFn } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

/** The current user; null when signed out. Not retried on failure (spec section 4). */
export const currentUserQuery = () =>
  queryOptions<CurrentUser | null>({
    queryKey: ['/api/auth/user'],
    queryFn: getQueryFn<CurrentUser | null>({ on401: 'returnNull' }),
    retry: false,
  });

export function useAuth() {
  const { data, isLoading } = useQuery(currentUserQuery());
  const user = data ?? null;
  return { user, isLoading, isAuthenticated: !!user, isAdmin: !!user?.isAdmin };
}

/** Logout: empty the cached user, clear all cached data, go to / (spec section 4). */
export function useLogout() {
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: async () => (await apiRequest('POST', '/api/logout')).json(),
    onSuccess: () => {
      forgetAnswers();
      const userKey = currentUserQuery().queryKey;
      queryClient.setQueryData(userKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userKey[0] });
      navigate('/');
    },
  });
}
