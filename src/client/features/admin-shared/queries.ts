import type {
  AdminStats,
  AdminTransaction,
  AdminTransactionDetail,
  QueueSort,
} from '@shared/admin';
import type { ReviewSummary } from '@shared/fair-dealing';
import type { Payouts } from '@shared/payouts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getPage } from '@/lib/api';
import { refresh } from '@/lib/queries';

/**
 * The staff views refresh when /api/events says they changed; this slow poll is the fallback
 * when the stream cannot get through (decision 017).
 */
export const STAFF_FALLBACK_POLL_MS = 15_000;

/** `path?a=1&b=2` with the parameters that have a value. */
export const withParams = (path: string, params: Record<string, string | null>) => {
  const query = new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => !!e[1]),
  );
  return query.size ? `${path}?${query}` : path;
};

export const adminStatsQuery = () =>
  queryOptions<AdminStats>({
    queryKey: ['/api/admin/stats'],
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** Pending cards past the review target (decision 073): it moves with the clock, so polled. */
export const reviewSummaryQuery = () =>
  queryOptions<ReviewSummary>({
    queryKey: ['/api/admin/review-summary'],
    refetchInterval: 60_000,
  });

/** The queue's pages and each card opened are keyed under this path: one refresh covers them. */
const CARDS = '/api/admin/transactions';

export interface UploadsFilter {
  search: string;
  status: string;
  /** 'flagged': only the cards an automated check flagged. */
  validation: string;
  /** 'pending': only the cards whose appeal waits for a decision. */
  appeal: string;
  /** 'pending': only the sampled instant decisions awaiting a person (decision 131). */
  sampled: string;
  /** 'waiting': the cards waiting for a decision first, longest-waiting at the top. */
  sort: QueueSort;
  cursor: string | null;
}

export const adminTransactionsQuery = ({
  search,
  status,
  validation,
  appeal,
  sampled,
  sort,
  cursor,
}: UploadsFilter) =>
  queryOptions({
    queryKey: [CARDS, { search, status, validation, appeal, sampled, sort, cursor }],
    queryFn: () =>
      getPage<AdminTransaction>(
        withParams(CARDS, {
          search: search.trim() || null,
          status: status === 'all' ? null : status,
          validation: validation === 'all' ? null : validation,
          appeal: appeal === 'all' ? null : appeal,
          sampled: sampled === 'all' ? null : sampled,
          sort,
          cursor,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/**
 * One card in the review dialog. Live events never replace it under its editor, so each opening
 * reads it again: a customer's answer to an offer, or an appeal, shows when staff open the card.
 */
export const adminTransactionQuery = (id: string) =>
  queryOptions<AdminTransactionDetail>({
    queryKey: [CARDS, id],
    refetchOnMount: 'always',
  });

/** The cards approved for payment, grouped by payment method type (decision 052). */
export const adminPayoutsQuery = () =>
  queryOptions<Payouts>({
    queryKey: ['/api/admin/payouts'],
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/**
 * After a save or a payout: the queue, the payouts, the summary, and the saved transaction's
 * detail. Reviewing and paying (two areas of the portal) both change all of them.
 */
export const refreshAfterReview = () =>
  refresh(
    [CARDS],
    adminPayoutsQuery().queryKey,
    adminStatsQuery().queryKey,
    reviewSummaryQuery().queryKey,
  );
