import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { currentUserQuery } from './queries';

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
      const userKey = currentUserQuery().queryKey;
      queryClient.setQueryData(userKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userKey[0] });
      navigate('/');
    },
  });
}
