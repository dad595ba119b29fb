import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { getQueryFn, isUnauthorizedError } from './api';
import { handleUnauthorized } from './unauthorized';

const onError = (error: unknown) => {
  if (isUnauthorizedError(error)) handleUnauthorized();
};

/** Spec section 7: no refetch on focus, never stale, no retries, except the listed polls. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    },
    mutations: { retry: false },
  },
});
