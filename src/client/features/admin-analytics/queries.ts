import type { Analytics } from '@shared/analytics';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export const analyticsQuery = (from: string, to: string) =>
  queryOptions<Analytics>({
    queryKey: ['/api/admin/analytics', { from, to }],
    queryFn: async () =>
      (await apiRequest('GET', `/api/admin/analytics?from=${from}&to=${to}`)).json(),
  });
