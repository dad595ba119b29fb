import type {
  AchBatchListItem,
  Disbursement,
  DisbursementStatus,
  PayoutRail,
} from '@shared/disbursements';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import * as React from 'react';
import {
  adminPayoutsQuery,
  refreshAfterReview,
  STAFF_FALLBACK_POLL_MS,
  withParams,
} from '@/features/admin-shared/queries';
import { getJson } from '@/lib/api';
import { refresh } from '@/lib/queries';

/**
 * The payouts on rails (issue 40), owners and finance. No live topic carries them (a chain's
 * confirmations and a wallet's balance change outside the app), so they are polled: quickly while
 * a payout is on its way, slowly otherwise.
 */
const RAILS = '/api/admin/payout-rails';
const DISBURSEMENTS = '/api/admin/disbursements';
const ACH_BATCHES = '/api/admin/ach-batches';
/** While a payout is queued or sent, the list looks again this often. */
export const MOVING_POLL_MS = 3_000;

/** The rails, with the hot wallet's balances: looked at quickly while payouts wait in a queue. */
export const payoutRailsQuery = () =>
  queryOptions<PayoutRail[]>({
    queryKey: [RAILS],
    queryFn: () => getJson<PayoutRail[]>(RAILS),
    refetchInterval: (query) =>
      query.state.data?.some((r) => r.queued !== '0.00') ? MOVING_POLL_MS : STAFF_FALLBACK_POLL_MS,
  });

export interface DisbursementPage {
  items: Disbursement[];
  nextCursor: string | null;
}

export const disbursementsQuery = (status: DisbursementStatus | 'all', cursor: string | null) =>
  queryOptions<DisbursementPage>({
    queryKey: [DISBURSEMENTS, { status, cursor }],
    queryFn: () =>
      getJson<DisbursementPage>(
        withParams(DISBURSEMENTS, { status: status === 'all' ? null : status, cursor }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.status === 'queued' || d.status === 'submitted')
        ? MOVING_POLL_MS
        : STAFF_FALLBACK_POLL_MS,
  });

export const achBatchesQuery = () =>
  queryOptions<AchBatchListItem[]>({
    queryKey: [ACH_BATCHES],
    queryFn: () => getJson<AchBatchListItem[]>(ACH_BATCHES),
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** An ACH batch's NACHA file, downloaded by the browser. */
export const achFileUrl = (id: string) => `${ACH_BATCHES}/${id}/file`;

/** After any payout change: the rails, every page of payouts, the batches and the payable cards. */
export const refreshPayouts = () =>
  Promise.all([
    refresh([RAILS], [DISBURSEMENTS], [ACH_BATCHES], adminPayoutsQuery().queryKey),
    refreshAfterReview(),
  ]);

/**
 * The rails (what their queues add up to), the payouts list and the batches follow the cards to
 * pay: the server's change of a payout publishes the staff's queue topic, which refetches the
 * cards to pay (live), and each time they are read again so are these. No topic of their own, so no server cache of them to keep coherent.
 */
export function useFollowQueue() {
  const { dataUpdatedAt } = useQuery(adminPayoutsQuery());
  React.useEffect(() => {
    if (dataUpdatedAt > 0) void refresh([RAILS], [DISBURSEMENTS], [ACH_BATCHES]);
  }, [dataUpdatedAt]);
}
