import { TICKET_STATUSES, ticketStatusLabel } from '@shared/statuses';
import { type AdminTicket, awaitsStaff, type TicketReplyInput } from '@shared/support';
import { useMutation, useQuery } from '@tanstack/react-query';
import { LifeBuoyIcon, MessagesSquareIcon } from 'lucide-react';
import * as React from 'react';
import { EmptyState } from '@/components/empty-state';
import { OptionsSelect } from '@/components/options-select';
import { Pager, useCursorPages } from '@/components/pager';
import { ColouredBadge } from '@/components/status-badge';
import { TicketAttachment } from '@/components/ticket-attachment';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { TicketConversation, TicketDialog, TicketReplyForm } from '@/components/ticket-thread';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { CustomerLink } from '@/features/admin-shared/customer-link';
import { apiRequest } from '@/lib/api';
import { formatDate, formatTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';
import { adminTicketQuery, adminTicketsQuery, refreshTickets } from './queries';

/** Sets a ticket's status (audited on the server); the list and the thread both use it. */
function useTicketStatus() {
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: string }) =>
      (await apiRequest('PATCH', `/api/admin/support-tickets/${id}`, { status })).json(),
    onSuccess: async () => {
      await refreshTickets();
      toast({ title: 'Success', description: 'Ticket updated successfully' });
    },
    onError: errorToast('Failed to update ticket'),
  });
}

export function TicketsTab() {
  const [status, setStatus] = React.useState('all');
  // Waiting for a reply first, the longest wait first, either way (decision 073).
  const [awaiting, setAwaiting] = React.useState<'all' | 'staff'>('all');
  const [openId, setOpenId] = React.useState<string | null>(null);
  const pages = useCursorPages(`${status}|${awaiting}`);
  const query = useQuery(adminTicketsQuery({ status, awaiting, cursor: pages.cursor }));
  const tickets = query.data?.items ?? [];
  const update = useTicketStatus();

  return (
    <div className="grid gap-4">
      <div className="flex flex-col justify-end gap-2 sm:flex-row">
        <NativeSelect
          aria-label="Filter tickets awaiting a reply"
          value={awaiting}
          onChange={(e) => setAwaiting(e.target.value as 'all' | 'staff')}
          className="w-full sm:w-48"
          data-testid="ticket-awaiting-filter"
        >
          <option value="all">All tickets</option>
          <option value="staff">Awaiting our reply</option>
        </NativeSelect>
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
          {status === 'all' && awaiting === 'all'
            ? 'No support tickets yet'
            : 'No tickets match these filters'}
        </EmptyState>
      ) : (
        <TicketList
          tickets={tickets}
          pending={update.isPending}
          onStatus={(id, status) => update.mutate({ id, status })}
          onOpen={setOpenId}
        />
      )}
      <Pager pages={pages} count={tickets.length} nextCursor={query.data?.nextCursor} />
      <TicketThreadDialog id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}

const customerName = (ticket: AdminTicket) =>
  [ticket.userFirstName, ticket.userLastName].filter(Boolean).join(' ');

const TICKET_STATUS_OPTIONS = TICKET_STATUSES.map((s) => [s, ticketStatusLabel(s)] as const);

function StatusSelect({
  ticket,
  pending,
  onStatus,
}: {
  ticket: AdminTicket;
  pending: boolean;
  onStatus: (id: string, status: string) => void;
}) {
  return (
    <OptionsSelect
      label={`Status of ${ticket.subject}`}
      value={ticket.status}
      disabled={pending}
      onChange={(status) => onStatus(ticket.id, status)}
      options={TICKET_STATUS_OPTIONS}
    />
  );
}

/** Open or in progress, and the customer wrote last: staff owe an answer. */
function AwaitingBadge({ ticket }: { ticket: AdminTicket }) {
  return awaitsStaff(ticket) ? (
    <ColouredBadge colour="red" label="Awaiting reply" testId="awaiting-reply" />
  ) : null;
}

function TicketList({
  tickets,
  pending,
  onStatus,
  onOpen,
}: {
  tickets: AdminTicket[];
  pending: boolean;
  onStatus: (id: string, status: string) => void;
  onOpen: (id: string) => void;
}) {
  return (
    <ul className="grid grid-cols-1 gap-3" data-testid="admin-tickets">
      {tickets.map((ticket) => {
        const name = customerName(ticket);
        return (
          <li
            key={ticket.id}
            className="grid gap-3 rounded-lg border p-4 sm:grid-cols-[minmax(0,1fr)_12rem]"
            data-testid="admin-ticket"
          >
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <p className="font-semibold [overflow-wrap:anywhere]">{ticket.subject}</p>
                <TicketStatusBadge status={ticket.status} />
                <AwaitingBadge ticket={ticket} />
              </div>
              <p className="mt-0.5 text-xs text-muted-foreground [overflow-wrap:anywhere]">
                <CustomerLink userId={ticket.userId}>
                  {name ? `${name} · ` : ''}
                  {ticket.email}
                </CustomerLink>{' '}
                · {formatDate(ticket.createdAt)} {formatTime(ticket.createdAt)}
                {ticket.replyCount > 0 &&
                  ` · ${ticket.replyCount} ${ticket.replyCount === 1 ? 'reply' : 'replies'}`}
              </p>
              <p className="mt-2 line-clamp-4 whitespace-pre-wrap text-sm [overflow-wrap:anywhere]">
                {ticket.message}
              </p>
              {ticket.attachmentUrl && (
                <TicketAttachment url={ticket.attachmentUrl} className="mt-2" />
              )}
            </div>
            <div className="grid content-start gap-2">
              <StatusSelect ticket={ticket} pending={pending} onStatus={onStatus} />
              <Button variant="outline" onClick={() => onOpen(ticket.id)}>
                <MessagesSquareIcon /> Open thread
                <span className="sr-only">: {ticket.subject}</span>
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** One ticket: the customer's first message, the replies in order, a reply box and the status. */
function TicketThreadDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useQuery(adminTicketQuery(id));
  const update = useTicketStatus();
  const send = useMutation({
    mutationFn: async (input: TicketReplyInput) =>
      (await apiRequest('POST', `/api/admin/support-tickets/${id}/replies`, input)).json(),
    onSuccess: async () => {
      await refreshTickets();
      toast({ title: 'Reply sent', description: 'The customer has been notified' });
    },
    onError: errorToast('Failed to send reply'),
  });
  return (
    <TicketDialog
      id={id}
      query={query}
      onClose={onClose}
      testId="admin-ticket-dialog"
      description={(ticket) => {
        const name = customerName(ticket);
        return name ? `${name} (${ticket.email})` : ticket.email;
      }}
    >
      {(ticket) => (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <AwaitingBadge ticket={ticket} />
            {ticket.userId && (
              <span className="flex flex-wrap gap-x-3 text-sm">
                <CustomerLink userId={ticket.userId} className="text-primary underline">
                  Customer page
                </CustomerLink>
                <CustomerLink
                  userId={ticket.userId}
                  section="cards"
                  className="text-primary underline"
                  label={`Their cards (${customerName(ticket) || ticket.email})`}
                >
                  Their cards
                </CustomerLink>
              </span>
            )}
            <div className="ml-auto w-full sm:w-48">
              <StatusSelect
                ticket={ticket}
                pending={update.isPending}
                onStatus={(id, status) => update.mutate({ id, status })}
              />
            </div>
          </div>
          <TicketConversation
            ticket={ticket}
            viewer="admin"
            customerLabel={customerName(ticket) || 'Customer'}
          />
          <TicketReplyForm
            id="admin-ticket-reply"
            pending={send.isPending}
            onSend={(input) => send.mutateAsync(input)}
            hint={
              ticket.userId
                ? 'The customer sees it under Contact Support and gets a notification.'
                : 'This customer’s account is gone: the reply is kept, but nobody is told.'
            }
          />
        </>
      )}
    </TicketDialog>
  );
}
