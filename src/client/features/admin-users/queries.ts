import type { AdminUser } from '@shared/admin';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { withParams } from '@/features/admin-shared/queries';
import { getPage } from '@/lib/api';
import { refresh } from '@/lib/queries';

const USERS = '/api/admin/users';

export const adminUsersQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: [USERS, { cursor }],
    queryFn: () => getPage<AdminUser>(withParams(USERS, { cursor })),
    placeholderData: keepPreviousData,
  });

/** After a change of standing: every page of the list. */
export const refreshUsers = () => refresh([USERS]);
