import type {
  AdminConversation,
  AdminTicket,
  AdminTicketThread,
  ChatMessage,
} from '@shared/support';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  adminStatsQuery,
  STAFF_FALLBACK_POLL_MS,
  withParams,
} from '@/features/admin-shared/queries';
import { getJson, getPage } from '@/lib/api';
import { refresh } from '@/lib/queries';

/** The list's pages and each conversation are keyed under this path. */
const CONVERSATIONS = '/api/admin/conversations';

/** Staff chats: one row per customer, a page at a time (decisions 016 and 017). */
export const adminConversationsQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: [CONVERSATIONS, { cursor }],
    queryFn: () => getPage<AdminConversation>(withParams(CONVERSATIONS, { cursor })),
    placeholderData: keepPreviousData,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** One customer's conversation, oldest first; refetched with the list when chats change. */
export const adminConversationQuery = (userId: string | null) =>
  queryOptions({
    queryKey: [CONVERSATIONS, { userId }],
    queryFn: () => getJson<ChatMessage[]>(`${CONVERSATIONS}/${userId}`),
    enabled: !!userId,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** After a reply or a clear: the conversations and the portal's message count. */
export const refreshChats = () => refresh([CONVERSATIONS], adminStatsQuery().queryKey);

/** The list's pages and every open thread are keyed under this path. */
const TICKETS = '/api/admin/support-tickets';

export interface TicketsFilter {
  status: string;
  cursor: string | null;
  /** 'staff': only the tickets waiting for a staff reply (decision 073). */
  awaiting?: string;
}

export const adminTicketsQuery = ({ status, awaiting = 'all', cursor }: TicketsFilter) =>
  queryOptions({
    queryKey: [TICKETS, { status, awaiting, cursor }],
    queryFn: () =>
      getPage<AdminTicket>(
        withParams(TICKETS, {
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
    queryKey: [TICKETS, { id }],
    queryFn: () => getJson<AdminTicketThread>(`${TICKETS}/${id}`),
    enabled: !!id,
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** After a reply or a status change: the list and every open thread. */
export const refreshTickets = () => refresh([TICKETS]);
