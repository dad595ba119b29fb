import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TicketAuthor,
  type TicketReply,
  type TicketReplyInput,
  ticketReplyInputSchema,
} from '@shared/support';
import { SendIcon } from 'lucide-react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import { ChatBubble } from '@/components/chat/chat-bubble';
import { useScrollToEnd } from '@/components/chat/use-scroll-to-end';
import { TicketAttachment } from '@/components/ticket-attachment';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';

/**
 * A ticket's conversation, oldest first: the customer's first message (with its link, if any),
 * then the replies. The viewer's own messages sit on the right, as in the chat.
 */
export function TicketConversation({
  ticket,
  viewer,
  customerLabel,
}: {
  ticket: {
    id: string;
    message: string;
    attachmentUrl: string | null;
    createdAt: string;
    replies: TicketReply[];
  };
  viewer: TicketAuthor;
  /** How the customer's messages are labelled: "You" for the customer, their name for staff. */
  customerLabel: string;
}) {
  const ref = useScrollToEnd(ticket.replies.length + 1, ticket.id);
  const label = (kind: TicketAuthor, name: string | null) =>
    kind === 'user' ? customerLabel : (name ?? 'Support');
  return (
    <div
      ref={ref}
      className="max-h-[45dvh] min-h-24 overflow-y-auto rounded-lg border bg-muted/30 p-3"
    >
      <ol className="grid grid-cols-1 gap-3" data-testid="ticket-thread">
        <ChatBubble
          mine={viewer === 'user'}
          label={customerLabel}
          entry={{ message: ticket.message, createdAt: ticket.createdAt }}
          withDate
        />
        {ticket.attachmentUrl && (
          <li className={cn('-mt-1 flex', viewer === 'user' ? 'justify-end' : 'justify-start')}>
            <TicketAttachment url={ticket.attachmentUrl} className="px-1" />
          </li>
        )}
        {ticket.replies.map((reply) => (
          <ChatBubble
            key={reply.id}
            mine={reply.authorKind === viewer}
            label={label(reply.authorKind, reply.authorName)}
            entry={{ message: reply.message, createdAt: reply.createdAt }}
            withDate
          />
        ))}
      </ol>
    </div>
  );
}

/** The reply box under a thread: a message (required, at most 5000 characters) and Send. */
export function TicketReplyForm({
  id,
  onSend,
  pending,
  hint,
}: {
  id: string;
  onSend: (input: TicketReplyInput) => Promise<unknown>;
  pending: boolean;
  hint?: string;
}) {
  const form = useForm<TicketReplyInput>({
    resolver: zodResolver(ticketReplyInputSchema),
    defaultValues: { message: '' },
  });
  const error = form.formState.errors.message?.message;
  return (
    <form
      className="grid gap-3"
      noValidate
      onSubmit={form.handleSubmit(async (input) => {
        try {
          await onSend(input);
          form.reset({ message: '' });
        } catch {
          // The caller's toast explains; the text stays for another try.
        }
      })}
    >
      <Field id={id} label="Your reply" error={error} hint={hint}>
        <Textarea id={id} rows={3} aria-invalid={!!error} {...form.register('message')} />
      </Field>
      <Button type="submit" disabled={pending} className="justify-self-end">
        <SendIcon /> {pending ? 'Sending...' : 'Send reply'}
      </Button>
    </form>
  );
}

/**
 * The dialog a ticket opens in, for the customer and for staff: its subject, a line about it,
 * then the body once the ticket has loaded (or a line saying it could not be found).
 */
export function TicketDialog<T extends { id: string; subject: string }>({
  id,
  query,
  onClose,
  testId,
  description,
  children,
}: {
  /** The open ticket's id; null when closed. */
  id: string | null;
  query: { data?: T; isError: boolean };
  onClose: () => void;
  testId: string;
  description: (ticket: T) => React.ReactNode;
  children: (ticket: T) => React.ReactNode;
}) {
  // Another ticket's answer still on hand (while this one loads) is not shown as this one.
  const ticket = query.data?.id === id ? query.data : undefined;
  const failed = query.isError;
  return (
    <DialogFrame
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      className="max-w-2xl"
      data-testid={testId}
      title={ticket?.subject ?? 'Support ticket'}
      titleClassName="pr-6 [overflow-wrap:anywhere]"
      description={
        <div className="flex flex-wrap items-center justify-center gap-2 [overflow-wrap:anywhere] sm:justify-start">
          {ticket
            ? description(ticket)
            : failed
              ? 'This ticket could not be found.'
              : 'Loading the conversation...'}
        </div>
      }
    >
      {ticket ? children(ticket) : !failed && <Skeleton className="h-40" />}
    </DialogFrame>
  );
}
