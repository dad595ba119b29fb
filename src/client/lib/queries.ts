import type { Earnings } from '@shared/analytics';
import type { ReviewTimes, TimelineEntry } from '@shared/fair-dealing';
import type { NotificationList } from '@shared/notifications';
import type { PaymentMethod } from '@shared/payment-methods';
import type { BrandRate } from '@shared/rates';
import type { SessionInfo } from '@shared/sessions';
import type { ChatMessage, Ticket, TicketThread } from '@shared/support';
import type { Stats, Transaction } from '@shared/transactions';
import type { VerificationState } from '@shared/verification';
import { type QueryKey, queryOptions } from '@tanstack/react-query';
import { getJson } from './api';
import { queryClient } from './query-client';

/**
 * One query-options factory per query: keys, polling and invalidation have one source. The
 * features' own factories sit in their `queries.ts`; nothing else writes a key.
 */

/**
 * Refetches the queries whose key starts with one of `keys`: a factory's key, or a list's path
 * for every page of the list.
 */
export const refresh = (...keys: QueryKey[]) =>
  Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));

export const statsQuery = () =>
  queryOptions<Stats>({ queryKey: ['/api/stats'], refetchInterval: 10_000 });

export const recentTransactionsQuery = () =>
  queryOptions<Transaction[]>({ queryKey: ['/api/transactions/recent'], refetchInterval: 5_000 });

export const transactionsQuery = () =>
  queryOptions<Transaction[]>({ queryKey: ['/api/transactions'], refetchInterval: 5_000 });

export const paymentMethodsQuery = () =>
  queryOptions<PaymentMethod[]>({ queryKey: ['/api/payment-methods'] });

/** After a submission: transactions, /api/stats and /api/transactions/recent (spec section 7). */
export const refreshAfterSubmission = () =>
  refresh(transactionsQuery().queryKey, statsQuery().queryKey, recentTransactionsQuery().queryKey);

/** What a customer was paid, by month (the dashboard's chart). */
export const earningsQuery = () => queryOptions<Earnings>({ queryKey: ['/api/stats/earnings'] });

/** Support chat: polled every 3 s; after 5 hours idle the data counts as stale (spec 7, 9). */
export const chatMessagesQuery = () =>
  queryOptions<ChatMessage[]>({
    queryKey: ['/api/chat/messages'],
    refetchInterval: 3_000,
    staleTime: 5 * 60 * 60 * 1000,
  });

export const supportTicketsQuery = () =>
  queryOptions<Ticket[]>({ queryKey: ['/api/support-tickets'] });

/**
 * One ticket's thread. Keyed under the list, so whatever refreshes the list (a reply, the
 * `tickets` event) refreshes the open thread too.
 */
export const supportTicketQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['/api/support-tickets', { id }],
    queryFn: () => getJson<TicketThread>(`/api/support-tickets/${id}`),
    enabled: !!id,
  });

/** The bell: pushed through /api/events; a slow poll is the fallback (the spec sets none). */
export const notificationsQuery = () =>
  queryOptions<NotificationList>({ queryKey: ['/api/notifications'], refetchInterval: 30_000 });

/** The account's signed-in browsers (Profile). */
export const sessionsQuery = () => queryOptions<SessionInfo[]>({ queryKey: ['/api/sessions'] });

/**
 * The brands bought today with their rate and minimum (staff-managed): /api/events says when
 * they change; a slow poll is the fallback.
 */
export const ratesQuery = () =>
  queryOptions<BrandRate[]>({ queryKey: ['/api/rates'], refetchInterval: 60_000 });

/**
 * The customer's verification level, limits and what is left of them (decision 072). Refetched
 * with the account (a decision raises the level) and after each submission.
 */
export const verificationQuery = () =>
  queryOptions<VerificationState>({ queryKey: ['/api/verification'], refetchInterval: 30_000 });

/** "Usually reviewed within N minutes" by brand (decision 073). */
export const reviewTimesQuery = () =>
  queryOptions<ReviewTimes>({ queryKey: ['/api/review-times'], staleTime: 5 * 60 * 1000 });

/**
 * A card's status timeline (decision 073), staff's (with who did each step) or the customer's.
 * Keyed by the card's `updatedAt` too, so a change of the card fetches it again.
 */
export const cardTimelineQuery = (id: string, staff: boolean, updatedAt: string) => {
  const url = staff ? `/api/admin/transactions/${id}/timeline` : `/api/transactions/${id}/timeline`;
  return queryOptions({
    queryKey: [url, { updatedAt }],
    queryFn: () => getJson<TimelineEntry[]>(url),
  });
};
