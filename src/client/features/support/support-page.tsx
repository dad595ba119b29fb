import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreateTicketInput,
  createTicketSchema,
  TICKET_CLOSED_MESSAGE,
  type Ticket,
  type TicketReplyInput,
} from '@shared/support';
import { useMutation, useQuery } from '@tanstack/react-query';
import { InboxIcon, MailIcon, MessagesSquareIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useSearch } from 'wouter';
import { AttachButton, AttachmentChip, useAttachment } from '@/components/chat/attachment';
import { FormTextField } from '@/components/form-text-field';
import { PageHeader } from '@/components/page-header';
import { ColouredBadge } from '@/components/status-badge';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { TicketConversation, TicketDialog, TicketReplyForm } from '@/components/ticket-thread';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { TextareaField } from '@/components/ui/text-field';
import { apiRequest, serverMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { formatDate, formatDateTime } from '@/lib/dates';
import { useFormDraft } from '@/lib/drafts';
import { refresh, supportTicketQuery, supportTicketsQuery } from '@/lib/queries';
import { toast } from '@/lib/toast';

type FormValues = { email: string; subject: string; message: string };

export function SupportPage() {
  const { user } = useAuth();
  const tickets = useQuery(supportTicketsQuery());
  // The open thread lives in the address (?ticket=), so a notification's link opens it.
  const openId = new URLSearchParams(useSearch()).get('ticket');
  const [, navigate] = useLocation();
  const openTicket = (id: string | null) =>
    navigate(id ? `/support?ticket=${encodeURIComponent(id)}` : '/support', { replace: true });
  const form = useForm<FormValues, unknown, CreateTicketInput>({
    resolver: zodResolver(createTicketSchema) as never,
    defaultValues: { email: user?.email ?? '', subject: '', message: '' },
  });
  const { errors } = form.formState;
  // Kept through a lost session (issue 43, item 18): the sign-in comes back here with it.
  const draft = useFormDraft('support-ticket', form, ['subject', 'message']);
  // A file attached as in chat (issue 24, item 11): uploaded when chosen, sent by its path.
  const file = useAttachment((error) =>
    toast({
      title: 'Failed to upload attachment',
      description: serverMessage(error) ?? error.message,
      variant: 'destructive',
    }),
  );
  const accountEmail = user?.email ?? '';
  React.useEffect(() => form.setValue('email', accountEmail), [form, accountEmail]);
  const submit = useMutation({
    mutationFn: async (body: CreateTicketInput) =>
      (await apiRequest('POST', '/api/support-tickets', body)).json(),
    onSuccess: async () => {
      await refresh(supportTicketsQuery().queryKey);
      toast({
        title: 'Ticket Submitted',
        description: 'Our support team will get back to you soon',
      });
      form.reset({ email: form.getValues('email'), subject: '', message: '' });
      draft.clear();
      file.clear();
    },
    onError: (error) =>
      toast({
        title: 'Failed to submit support ticket',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });

  return (
    <div>
      <PageHeader
        title="Contact Support"
        description="Send us a ticket. We answer in its conversation here and let you know."
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card>
          <CardHeader>
            <CardTitle>New ticket</CardTitle>
            <CardDescription>
              Tell us what happened. Include the card type and date if it is about a card.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form
              className="grid gap-4"
              noValidate
              onSubmit={form.handleSubmit((v) =>
                submit.mutate({ ...v, attachmentUrl: file.ready?.url ?? null }),
              )}
            >
              {/* Signed in, the ticket is the account's: its email, changed only in Profile. */}
              <FormTextField
                form={form}
                name="email"
                id="ticket-email"
                label="Email"
                type="email"
                readOnly
                hint="Your account's email. Change it in Profile."
              />
              <FormTextField form={form} name="subject" id="ticket-subject" label="Subject" />
              <TextareaField
                id="ticket-message"
                label="Message"
                error={errors.message?.message}
                rows={5}
                {...form.register('message')}
              />
              <div className="grid gap-2">
                {file.input}
                <AttachButton
                  onClick={file.open}
                  disabled={file.attachment.status === 'uploading'}
                  label="Attach a file"
                />
                <p className="text-xs text-muted-foreground">
                  Optional: a screenshot or a PDF, up to 10 MB.
                </p>
                <AttachmentChip attachment={file.attachment} onRemove={file.clear} />
              </div>
              <Button type="submit" disabled={submit.isPending} className="justify-self-start">
                <MailIcon /> {submit.isPending ? 'Submitting...' : 'Submit Ticket'}
              </Button>
            </form>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Your Tickets</CardTitle>
            <CardDescription>
              Open one to read our answers and reply. Its status updates as we work on it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {tickets.isLoading ? (
              <Skeleton className="h-24" />
            ) : tickets.data?.length ? (
              <ul className="grid grid-cols-1 gap-3" data-testid="ticket-list">
                {tickets.data.map((ticket) => (
                  <TicketItem
                    key={ticket.id}
                    ticket={ticket}
                    onOpen={() => openTicket(ticket.id)}
                  />
                ))}
              </ul>
            ) : (
              <div className="py-8 text-center text-sm text-muted-foreground">
                <InboxIcon className="mx-auto mb-2 size-8" />
                No tickets yet.
              </div>
            )}
          </CardContent>
        </Card>
      </div>
      <CustomerTicketDialog id={openId} onClose={() => openTicket(null)} />
    </div>
  );
}

function TicketItem({ ticket, onOpen }: { ticket: Ticket; onOpen: () => void }) {
  const answered = ticket.lastReplyBy === 'admin' && ticket.replyCount > 0;
  return (
    <li className="rounded-lg border p-4" data-testid="ticket">
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 font-semibold [overflow-wrap:anywhere]">{ticket.subject}</p>
        <TicketStatusBadge status={ticket.status} />
      </div>
      <p className="mt-1 text-xs text-muted-foreground">{formatDate(ticket.createdAt)}</p>
      <p className="mt-2 line-clamp-3 whitespace-pre-wrap text-sm [overflow-wrap:anywhere]">
        {ticket.message}
      </p>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
        <span className="flex items-center gap-2 text-xs text-muted-foreground">
          {repliesText(ticket.replyCount)}
          {answered && (
            <ColouredBadge colour="green" label="Support replied" testId="support-replied" />
          )}
        </span>
        <Button variant="outline" size="sm" onClick={onOpen}>
          <MessagesSquareIcon /> View conversation
          <span className="sr-only">: {ticket.subject}</span>
        </Button>
      </div>
    </li>
  );
}

const repliesText = (count: number) =>
  count === 0 ? 'No replies yet' : `${count} ${count === 1 ? 'reply' : 'replies'}`;

/** A ticket's thread and the customer's reply box (none once the ticket is closed). */
function CustomerTicketDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useQuery(supportTicketQuery(id));
  const send = useMutation({
    mutationFn: async (input: TicketReplyInput) =>
      (await apiRequest('POST', `/api/support-tickets/${id}/replies`, input)).json(),
    onSuccess: async () => {
      await refresh(supportTicketsQuery().queryKey);
      toast({
        title: 'Reply sent',
        description:
          query.data?.status === 'resolved'
            ? 'Your ticket is open again. Our support team will get back to you soon'
            : 'Our support team will get back to you soon',
      });
    },
    onError: (error) =>
      toast({
        title: 'Failed to send reply',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  return (
    <TicketDialog
      id={id}
      query={query}
      onClose={onClose}
      testId="ticket-dialog"
      description={(ticket) => (
        <>
          <TicketStatusBadge status={ticket.status} />
          <span>Filed {formatDateTime(ticket.createdAt)}</span>
        </>
      )}
    >
      {(ticket) => (
        <>
          <TicketConversation ticket={ticket} viewer="user" customerLabel="You" />
          {ticket.status === 'closed' ? (
            <p className="text-sm text-muted-foreground" data-testid="ticket-closed">
              {TICKET_CLOSED_MESSAGE}
            </p>
          ) : (
            <TicketReplyForm
              id="ticket-reply"
              pending={send.isPending}
              onSend={(input) => send.mutateAsync(input)}
              hint={
                ticket.status === 'resolved'
                  ? 'This ticket is resolved. Replying opens it again.'
                  : 'We will answer here and tell you by notification.'
              }
            />
          )}
        </>
      )}
    </TicketDialog>
  );
}
