import type {
  AdminStats,
  AdminTransaction,
  AdminTransactionDetail,
  AdminUser,
  QueueSort,
} from '@shared/admin';
import type { ReviewSummary } from '@shared/fair-dealing';
import type { Payouts } from '@shared/payouts';
import type { AdminBrandRate, RateChange } from '@shared/rates';
import type { StaffMember } from '@shared/staff';
import type {
  AdminConversation,
  AdminTicket,
  AdminTicketThread,
  ChatMessage,
} from '@shared/support';
import type { AdminVerification, LevelLimits } from '@shared/verification';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getJson, getPage } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

/**
 * The staff views refresh when /api/events says they changed; this slow poll is the fallback
 * when the stream cannot get through (decision 017).
 */
const STAFF_FALLBACK_POLL_MS = 15_000;

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

export interface UploadsFilter {
  search: string;
  status: string;
  /** 'flagged': only the cards an automated check flagged. */
  validation: string;
  /** 'pending': only the cards whose appeal waits for a decision. */
  appeal: string;
  /** 'waiting': the cards waiting for a decision first, longest-waiting at the top. */
  sort: QueueSort;
  cursor: string | null;
}

const withParams = (path: string, params: Record<string, string | null>) => {
  const query = new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => !!e[1]),
  );
  return query.size ? `${path}?${query}` : path;
};

export const adminTransactionsQuery = ({
  search,
  status,
  validation,
  appeal,
  sort,
  cursor,
}: UploadsFilter) =>
  queryOptions({
    queryKey: ['/api/admin/transactions', { search, status, validation, appeal, sort, cursor }],
    queryFn: () =>
      getPage<AdminTransaction>(
        withParams('/api/admin/transactions', {
          search: search.trim() || null,
          status: status === 'all' ? null : status,
          validation: validation === 'all' ? null : validation,
          appeal: appeal === 'all' ? null : appeal,
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
    queryKey: ['/api/admin/transactions', id],
    refetchOnMount: 'always',
  });

export const adminUsersQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: ['/api/admin/users', { cursor }],
    queryFn: () => getPage<AdminUser>(withParams('/api/admin/users', { cursor })),
    placeholderData: keepPreviousData,
  });

/**
 * After a save or a payout: the queue, the payouts, the summary, and the saved transaction's
 * detail.
 */
export function refreshAfterReview() {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['/api/admin/transactions'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/admin/payouts'] }),
    queryClient.invalidateQueries({ queryKey: adminStatsQuery().queryKey }),
    queryClient.invalidateQueries({ queryKey: reviewSummaryQuery().queryKey }),
  ]);
}

/** The cards approved for payment, grouped by payment method type (decision 052). */
export const adminPayoutsQuery = () =>
  queryOptions<Payouts>({
    queryKey: ['/api/admin/payouts'],
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** The CSV of the same cards, downloaded by the browser. */
export const PAYOUTS_CSV_URL = '/api/admin/payouts.csv';

/** Staff chats: one row per customer, a page at a time (decisions 016 and 017). */
export const adminConversationsQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: ['/api/admin/conversations', { cursor }],
    queryFn: () => getPage<AdminConversation>(withParams('/api/admin/conversations', { cursor })),
    placeholderData: keepPreviousData,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** One customer's conversation, oldest first; refetched with the list when chats change. */
export const adminConversationQuery = (userId: string | null) =>
  queryOptions({
    queryKey: ['/api/admin/conversations', { userId }],
    queryFn: () => getJson<ChatMessage[]>(`/api/admin/conversations/${userId}`),
    enabled: !!userId,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

export interface TicketsFilter {
  status: string;
  cursor: string | null;
  /** 'staff': only the tickets waiting for a staff reply (decision 073). */
  awaiting?: string;
}

export const adminTicketsQuery = ({ status, awaiting = 'all', cursor }: TicketsFilter) =>
  queryOptions({
    queryKey: ['/api/admin/support-tickets', { status, awaiting, cursor }],
    queryFn: () =>
      getPage<AdminTicket>(
        withParams('/api/admin/support-tickets', {
          status: status === 'all' ? null : status,
          awaiting: awaiting === 'all' ? null : awaiting,
          cursor,
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** One ticket's thread for staff; refetched with the list when staff tickets change. */
export const adminTicketQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['/api/admin/support-tickets', { id }],
    queryFn: () => getJson<AdminTicketThread>(`/api/admin/support-tickets/${id}`),
    enabled: !!id,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** Every brand with its terms, retired ones too; pushed by the `rates` topic. */
export const adminRatesQuery = () =>
  queryOptions<AdminBrandRate[]>({ queryKey: ['/api/admin/rates'] });

export const rateHistoryQuery = () =>
  queryOptions<RateChange[]>({ queryKey: ['/api/admin/rates/history'] });

/** After a change of terms: the staff list, its history and the public list the forms quote. */
export const refreshRates = () =>
  Promise.all(
    ['/api/admin/rates', '/api/admin/rates/history', '/api/rates'].map((path) =>
      queryClient.invalidateQueries({ queryKey: [path] }),
    ),
  );

/** The identity checks waiting for staff, oldest first (decision 072). */
export const adminVerificationsQuery = (status: string, cursor: string | null) =>
  queryOptions({
    queryKey: ['/api/admin/verifications', { status, cursor }],
    queryFn: () =>
      getPage<AdminVerification>(withParams('/api/admin/verifications', { status, cursor })),
    placeholderData: keepPreviousData,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

export const adminVerificationQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['/api/admin/verifications', { id }],
    queryFn: () =>
      getJson<AdminVerification & { audit: AdminTransactionDetail['audit'] }>(
        `/api/admin/verifications/${id}`,
      ),
    enabled: !!id,
  });

/** The selling limits by level (decision 072). */
export const adminLimitsQuery = () =>
  queryOptions<LevelLimits[]>({ queryKey: ['/api/admin/limits'] });

/** The staff accounts (owners only, decision 077). */
export const staffQuery = () => queryOptions<StaffMember[]>({ queryKey: ['/api/admin/staff'] });
