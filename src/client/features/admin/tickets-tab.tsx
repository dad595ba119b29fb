import { ADMIN_PAGE_SIZE } from '@shared/admin';
import { TICKET_STATUSES, ticketStatusLabel } from '@shared/statuses';
import type { AdminTicket } from '@shared/support';
import { useMutation, useQuery } from '@tanstack/react-query';
import { LifeBuoyIcon } from 'lucide-react';
import * as React from 'react';
import { EmptyState } from '@/components/empty-state';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { apiRequest, serverMessage } from '@/lib/api';
import { formatDate, formatTime } from '@/lib/dates';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/lib/toast';
import { Pager, useCursorPages } from './pager';
import { adminTicketsQuery } from './queries';

export function TicketsTab() {
  const [status, setStatus] = React.useState('all');
  const pages = useCursorPages(status);
  const query = useQuery(adminTicketsQuery({ status, cursor: pages.cursor }));
  const tickets = query.data?.items ?? [];
  const update = useMutation({
    mutationFn: async ({ id, status }: { id: string; status: string }) =>
      (await apiRequest('PATCH', `/api/admin/support-tickets/${id}`, { status })).json(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['/api/admin/support-tickets'] });
      toast({ title: 'Success', description: 'Ticket updated successfully' });
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to update ticket',
        variant: 'destructive',
      }),
  });

  return (
    <div className="grid gap-4">
      <div className="flex justify-end">
        <NativeSelect
          aria-label="Filter tickets by status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          className="w-full sm:w-48"
          data-testid="ticket-status-filter"
        >
          <option value="all">All statuses</option>
          {TICKET_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ticketStatusLabel(s)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {query.isLoading ? (
        <Skeleton className="h-48" />
      ) : tickets.length === 0 ? (
        <EmptyState icon={<LifeBuoyIcon />} testId="tickets-empty">
          {status === 'all' ? 'No support tickets yet' : 'No tickets with this status'}
        </EmptyState>
      ) : (
        <TicketList
          tickets={tickets}
          pending={update.isPending}
          onStatus={(id, status) => update.mutate({ id, status })}
        />
      )}
      <Pager
        page={pages.page}
        count={tickets.length}
        pageSize={ADMIN_PAGE_SIZE}
        nextCursor={query.data?.nextCursor}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
    </div>
  );
}

function TicketList({
  tickets,
  pending,
  onStatus,
}: {
  tickets: AdminTicket[];
  pending: boolean;
  onStatus: (id: string, status: string) => void;
}) {
  return (
    <ul className="grid grid-cols-1 gap-3" data-testid="admin-tickets">
      {tickets.map((ticket) => {
        const name = [ticket.userFirstName, ticket.userLastName].filter(Boolean).join(' ');
        return (
          <li
            key={ticket.id}
            className="grid gap-3 rounded-lg border p-4 sm:grid-cols-[minmax(0,1fr)_12rem]"
            data-testid="admin-ticket"
          >
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <p className="font-semibold">{ticket.subject}</p>
                <TicketStatusBadge status={ticket.status} />
              </div>
              <p className="mt-0.5 text-xs text-muted-foreground [overflow-wrap:anywhere]">
                {name ? `${name} · ` : ''}
                {ticket.email} · {formatDate(ticket.createdAt)} {formatTime(ticket.createdAt)}
              </p>
              <p className="mt-2 whitespace-pre-wrap text-sm">{ticket.message}</p>
              {ticket.attachmentUrl && (
                <a
                  href={ticket.attachmentUrl}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="mt-1 inline-block break-all text-sm text-primary underline-offset-2 hover:underline"
                >
                  {ticket.attachmentUrl}
                </a>
              )}
            </div>
            <NativeSelect
              aria-label={`Status of ${ticket.subject}`}
              value={ticket.status}
              disabled={pending}
              onChange={(e) => onStatus(ticket.id, e.target.value)}
            >
              {TICKET_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {ticketStatusLabel(s)}
                </option>
              ))}
            </NativeSelect>
          </li>
        );
      })}
    </ul>
  );
}
