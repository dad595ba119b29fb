import type { AdminTransactionDetail } from '@shared/admin';
import type { AdminVerification, LevelLimits } from '@shared/verification';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { STAFF_FALLBACK_POLL_MS, withParams } from '@/features/admin-shared/queries';
import { getJson, getPage } from '@/lib/api';
import { refresh } from '@/lib/queries';

/** The list's pages and each check opened are keyed under this path. */
const VERIFICATIONS = '/api/admin/verifications';

/** The identity checks waiting for staff, oldest first (decision 072). */
export const adminVerificationsQuery = (status: string, cursor: string | null) =>
  queryOptions({
    queryKey: [VERIFICATIONS, { status, cursor }],
    queryFn: () => getPage<AdminVerification>(withParams(VERIFICATIONS, { status, cursor })),
    placeholderData: keepPreviousData,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

export const adminVerificationQuery = (id: string | null) =>
  queryOptions({
    queryKey: [VERIFICATIONS, { id }],
    queryFn: () =>
      getJson<AdminVerification & { audit: AdminTransactionDetail['audit'] }>(
        `${VERIFICATIONS}/${id}`,
      ),
    enabled: !!id,
  });

/** After a decision: the list and the check. */
export const refreshVerifications = () => refresh([VERIFICATIONS]);

/** The selling limits by level (decision 072). */
export const adminLimitsQuery = () =>
  queryOptions<LevelLimits[]>({ queryKey: ['/api/admin/limits'] });

export const refreshLimits = () => refresh(adminLimitsQuery().queryKey);
