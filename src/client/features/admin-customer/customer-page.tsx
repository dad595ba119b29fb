import type { AdminTransaction } from '@shared/admin';
import { brandName } from '@shared/brands';
import {
  CUSTOMER_NOTE_MAX_LENGTH,
  type CustomerPage,
  type CustomerPaymentMethod,
} from '@shared/customer-page';
import { formatMoney } from '@shared/money';
import { paymentMethodLabel } from '@shared/payment-methods';
import { displayName } from '@shared/user-display';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, UserXIcon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { Detail } from '@/components/detail';
import { EmptyState } from '@/components/empty-state';
import { PaymentStatusBadge, StatusBadge } from '@/components/status-badge';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { Badge } from '@/components/ui/badge';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { TextareaField } from '@/components/ui/text-field';
import { VerifiedBadge } from '@/components/verified-badge';
import { StandingBadge } from '@/features/admin-shared/standing-badge';
import { ApiError, serverMessage } from '@/lib/api';
import { formatDate, formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { addCustomerNote, customerPageQuery, refreshCustomer, useMorePages } from './queries';

/**
 * One customer on one page for staff (issue 43 item 15): their cards, payouts, payment methods,
 * verification, standing, sessions, chat, tickets, and the notes staff leave each other.
 */
export function CustomerPageView({ userId }: { userId: string }) {
  const query = useQuery(customerPageQuery(userId));
  // Opened at a section (`#cards` from the chat and tickets): scrolled to it once it is drawn.
  const loaded = !!query.data;
  React.useEffect(() => {
    if (!loaded || !window.location.hash) return;
    document.getElementById(window.location.hash.slice(1))?.scrollIntoView();
  }, [loaded]);
  if (query.isLoading) return <Skeleton className="h-96" />;
  if (query.error || !query.data) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="grid gap-4">
        <BackLink />
        <EmptyState icon={<UserXIcon />} testId="customer-missing">
          {missing
            ? 'No customer has this id.'
            : (serverMessage(query.error) ?? 'Could not load the customer.')}
        </EmptyState>
      </div>
    );
  }
  const page = query.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6" data-testid="customer-page">
      <BackLink />
      <CustomerHeader page={page} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2 lg:items-start">
        {SECTIONS.map(({ id, title, className, body }) => (
          <Section key={id} id={id} title={title} className={className}>
            {body(page)}
          </Section>
        ))}
      </div>
    </div>
  );
}

/** The page's sections, in order: the cards across the page, the rest two a row on wide screens. */
const SECTIONS: {
  id: string;
  title: string;
  className?: string;
  body: (page: CustomerPage) => React.ReactNode;
}[] = [
  { id: 'cards', title: 'Cards', className: 'lg:col-span-2', body: (p) => <CardsList page={p} /> },
  { id: 'payouts', title: 'Payouts', body: (p) => <PayoutsList page={p} /> },
  {
    id: 'payment-methods',
    title: 'Payment methods',
    body: (p) => <PaymentMethodsList methods={p.paymentMethods} />,
  },
  {
    id: 'verification',
    title: 'Verification',
    body: (p) => <VerificationView verification={p.verification} />,
  },
  { id: 'standing', title: 'Standing', body: (p) => <StandingView standing={p.standing} /> },
  { id: 'sessions', title: 'Sessions', body: (p) => <SessionsList sessions={p.sessions} /> },
  { id: 'notes', title: 'Staff notes', body: (p) => <Notes page={p} /> },
  { id: 'chat', title: 'Chat', body: (p) => <ChatView chat={p.chat} /> },
  { id: 'tickets', title: 'Tickets', body: (p) => <TicketsList tickets={p.tickets} /> },
];

function BackLink() {
  return (
    <Button variant="ghost" size="sm" asChild className="justify-self-start">
      <Link href="/admin?tab=users">
        <ArrowLeftIcon /> All customers
      </Link>
    </Button>
  );
}

function Section({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Card className={className}>
      <CardContent className="p-4 sm:p-6">
        <section
          id={id}
          aria-labelledby={`${id}-heading`}
          className="grid scroll-mt-20 gap-3"
          data-testid={`customer-${id}`}
        >
          <h2 id={`${id}-heading`} className="text-lg font-semibold">
            {title}
          </h2>
          {children}
        </section>
      </CardContent>
    </Card>
  );
}

function None({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-muted-foreground">{children}</p>;
}

function CustomerHeader({ page }: { page: CustomerPage }) {
  const u = page.user;
  const name = displayName(u);
  return (
    <Card>
      <CardContent className="grid gap-4 p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 text-2xl font-bold tracking-tight wrap-anywhere sm:text-3xl">
            {name}
          </h1>
          <StandingBadge standing={u.standing} testId="customer-standing-badge" />
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
          <Detail label="Email" className="col-span-2">
            <span className="mr-2">{u.email}</span>
            <VerifiedBadge verified={u.emailVerified} />
          </Detail>
          <Detail label="Joined">{formatDate(u.createdAt)}</Detail>
          <Detail label="Level">{u.verificationLevel}</Detail>
          <Detail label="Customer ID" className="col-span-2">
            <span className="font-mono text-xs">{u.id}</span>
          </Detail>
          <Detail label="Cards">
            {page.transactions.items.length}
            {page.transactions.nextCursor ? '+' : ''}
          </Detail>
          <Detail label="Scam question refusals">{u.scamCheckRefusals}</Detail>
        </dl>
      </CardContent>
    </Card>
  );
}

/** The customer's cards, newest first: what, how much, where it stands, and its payment. */
function CardsList({ page }: { page: CustomerPage }) {
  const pages = useMorePages<AdminTransaction>(page.user.id, 'transactions', page.transactions);
  if (pages.items.length === 0) return <None>No cards yet.</None>;
  return (
    <>
      <ul className="grid divide-y text-sm">
        {pages.items.map((c) => (
          <li
            key={c.id}
            className="grid gap-1 py-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto_auto] sm:items-center sm:gap-3"
            data-testid="customer-card"
          >
            <div className="min-w-0">
              <p className="font-medium">
                {brandName(c.cardType)} · {formatMoney(c.cardValue)}
              </p>
              <p className="text-xs text-muted-foreground">
                {formatDateTime(c.createdAt)} ·{' '}
                <span className="font-mono">{c.id.slice(0, 8)}</span>
              </p>
            </div>
            <p className="tabular-nums">
              {formatMoney(c.paymentAmount ?? c.expectedPayout)}
              <span className="ml-1 text-xs text-muted-foreground">payout</span>
            </p>
            <div className="flex flex-wrap gap-1.5">
              <StatusBadge status={c.status} />
              <PaymentStatusBadge status={c.paymentStatus} />
            </div>
          </li>
        ))}
      </ul>
      <ShowMore pages={pages} what="cards" />
    </>
  );
}

/** "Show more" under a paged section while it has more, and what went wrong if it failed. */
function ShowMore({
  pages,
  what,
}: {
  pages: { hasMore: boolean; loading: boolean; error: boolean; load: () => Promise<void> };
  what: string;
}) {
  if (!pages.hasMore) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="outline"
        size="sm"
        onClick={() => void pages.load()}
        disabled={pages.loading}
        data-testid={`more-${what}`}
      >
        {pages.loading ? 'Loading...' : `Show more ${what}`}
      </Button>
      {pages.error && (
        <span role="alert" className="text-sm text-destructive">
          Could not load more {what}.
        </span>
      )}
    </div>
  );
}

function PayoutsList({ page }: { page: CustomerPage }) {
  const pages = useMorePages(page.user.id, 'payouts', page.payouts);
  const payouts = pages.items;
  if (payouts.length === 0) return <None>Nothing paid or waiting to be paid.</None>;
  return (
    <>
      <ul className="grid divide-y text-sm">
        {payouts.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <span className="font-medium tabular-nums">{formatMoney(p.amount)}</span>
            <span className="text-muted-foreground">
              {brandName(p.cardType)} ·{' '}
              {p.paymentMethodType ? paymentMethodLabel(p.paymentMethodType) : 'No method'}
            </span>
            <PaymentStatusBadge status={p.paymentStatus} />
            {p.payoutReference && (
              <span className="font-mono text-xs wrap-anywhere">{p.payoutReference}</span>
            )}
            <span className="text-xs text-muted-foreground">{formatDate(p.updatedAt)}</span>
          </li>
        ))}
      </ul>
      <ShowMore pages={pages} what="payouts" />
    </>
  );
}

/** Each method with the details the review dialog shows for a card's method. */
function PaymentMethodsList({ methods }: { methods: CustomerPaymentMethod[] }) {
  if (methods.length === 0) return <None>No payment methods.</None>;
  return (
    <ul className="grid gap-3">
      {methods.map((m) => (
        <li key={m.id} className="rounded-md border p-3" data-testid="customer-method">
          <p className="flex flex-wrap items-center gap-2 text-sm font-semibold">
            {paymentMethodLabel(m.type)}
            {m.isDefault && <Badge variant="secondary">Default</Badge>}
            {m.payoutsFrom && new Date(m.payoutsFrom).getTime() > Date.now() && (
              <Badge variant="outline">Payouts from {formatDateTime(m.payoutsFrom)}</Badge>
            )}
          </p>
          <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-2 text-sm">
            <Detail label="Account Name">{m.accountName}</Detail>
            {m.identifier && (
              <Detail label="Identifier">
                <span className="break-all">{m.identifier}</span>
              </Detail>
            )}
            {m.accountNumber && <Detail label="Account Number">{m.accountNumber}</Detail>}
            {m.bankName && <Detail label="Bank Name">{m.bankName}</Detail>}
            {m.routingNumber && <Detail label="Routing Number">{m.routingNumber}</Detail>}
            <Detail label="Added">{formatDate(m.createdAt)}</Detail>
          </dl>
        </li>
      ))}
    </ul>
  );
}

const VERIFICATION_WORDS: Record<string, string> = {
  none: 'Not verified',
  pending: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
};

function VerificationView({ verification: v }: { verification: CustomerPage['verification'] }) {
  return (
    <div className="grid gap-3 text-sm">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2">
        <Detail label="Level">{v.level}</Detail>
        <Detail label="Status">{VERIFICATION_WORDS[v.status] ?? v.status}</Detail>
        <Detail label="Sold today">
          {formatMoney(v.limits.usedDay)} of {formatMoney(v.limits.perDay)}
        </Detail>
        <Detail label="Sold in 30 days">
          {formatMoney(v.limits.used30Days)} of {formatMoney(v.limits.per30Days)}
        </Detail>
      </dl>
      {v.submissions.length > 0 && (
        <ul className="grid divide-y">
          {v.submissions.map((s) => (
            <li key={s.id} className="py-2">
              Level {s.level}: {VERIFICATION_WORDS[s.status] ?? s.status}
              <span className="text-muted-foreground"> · sent {formatDate(s.createdAt)}</span>
              {s.reason && <span className="block text-muted-foreground">{s.reason}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const STANDING_ACTIONS: Record<string, string> = {
  suspend: 'Suspended',
  close: 'Closed',
  reinstate: 'Reinstated',
};

function StandingView({ standing: s }: { standing: CustomerPage['standing'] }) {
  return (
    <div className="grid gap-3 text-sm">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2">
        <Detail label="Now">
          <StandingBadge standing={s.standing} testId="customer-standing-badge" />
        </Detail>
        {s.changedAt && <Detail label="Since">{formatDateTime(s.changedAt)}</Detail>}
        {s.reason && (
          <Detail label="Reason (the customer reads it)" className="col-span-2">
            {s.reason}
          </Detail>
        )}
        {s.note && (
          <Detail label="Note for staff" className="col-span-2">
            {s.note}
          </Detail>
        )}
      </dl>
      {s.history.length > 0 ? (
        <ul className="grid divide-y">
          {s.history.map((h) => (
            <li key={h.id} className="py-2">
              {STANDING_ACTIONS[h.action] ?? h.action} by {h.actorEmail}
              <span className="text-muted-foreground"> · {formatDateTime(h.createdAt)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <None>Never suspended or closed.</None>
      )}
    </div>
  );
}

function SessionsList({ sessions }: { sessions: CustomerPage['sessions'] }) {
  if (sessions.length === 0) return <None>Signed in nowhere.</None>;
  return (
    <ul className="grid divide-y text-sm">
      {sessions.map((s) => (
        <li key={s.id} className="py-2">
          <p className="font-medium">
            {[s.browser, s.system].filter(Boolean).join(' on ') || 'Unknown browser'}
          </p>
          <p className="text-xs text-muted-foreground">
            {s.ipAddress ?? 'No address'} · signed in {formatDateTime(s.createdAt)} · last seen{' '}
            {formatDateTime(s.lastSeenAt)}
          </p>
        </li>
      ))}
    </ul>
  );
}

function ChatView({ chat }: { chat: CustomerPage['chat'] }) {
  if (!chat) return <None>Your role does not read customers’ chats.</None>;
  if (chat.items.length === 0) return <None>No chat messages.</None>;
  // The newest messages, oldest of them first, as a conversation reads.
  const recent = chat.items.slice(-20);
  return (
    <div className="grid gap-2">
      <ol className="grid max-h-80 gap-2 overflow-y-auto text-sm" aria-label="Recent messages">
        {recent.map((m) => (
          <li
            key={m.id}
            className={
              m.senderType === 'user'
                ? 'justify-self-start rounded-md bg-muted px-3 py-2'
                : 'justify-self-end rounded-md bg-primary/10 px-3 py-2'
            }
          >
            <p className="text-xs text-muted-foreground">
              {m.senderType === 'user' ? 'Customer' : (m.senderName ?? 'Staff')} ·{' '}
              {formatDateTime(m.createdAt)}
            </p>
            <p className="whitespace-pre-wrap wrap-anywhere">
              {m.message || (m.attachmentUrl ? 'Sent a file' : '')}
            </p>
          </li>
        ))}
      </ol>
      <Button variant="outline" size="sm" asChild className="justify-self-start">
        <Link href="/admin?tab=chat">Open Chat Support</Link>
      </Button>
    </div>
  );
}

function TicketsList({ tickets }: { tickets: CustomerPage['tickets'] }) {
  if (!tickets) return <None>Your role does not read support tickets.</None>;
  if (tickets.items.length === 0) return <None>No tickets.</None>;
  return (
    <div className="grid gap-2">
      <ul className="grid divide-y text-sm">
        {tickets.items.map((t) => (
          <li key={t.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <span className="min-w-0 font-medium wrap-anywhere">{t.subject}</span>
            <TicketStatusBadge status={t.status} />
            <span className="text-xs text-muted-foreground">{formatDate(t.createdAt)}</span>
          </li>
        ))}
      </ul>
      <Button variant="outline" size="sm" asChild className="justify-self-start">
        <Link href="/admin?tab=tickets">Open Tickets</Link>
      </Button>
    </div>
  );
}

/** Notes staff leave each other (decision 144): never shown to the customer in the app. */
function Notes({ page }: { page: CustomerPage }) {
  const userId = page.user.id;
  const pages = useMorePages(userId, 'notes', page.notes);
  const notes = pages.items;
  const [body, setBody] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const add = useMutation({
    mutationFn: () => addCustomerNote(userId, body),
    onSuccess: async () => {
      setBody('');
      setError(undefined);
      await refreshCustomer(userId);
      toast({ title: 'Note added' });
    },
    onError: (e) => setError(serverMessage(e) ?? 'Could not add the note'),
  });
  return (
    <div className="grid gap-3">
      <form
        className="grid gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!body.trim()) {
            setError('Note is required');
            return;
          }
          add.mutate();
        }}
        data-testid="customer-note-form"
      >
        <TextareaField
          id="customer-note"
          label="Add a note for staff"
          hint="Staff only: the customer never sees it in the app, but it is part of their data export."
          value={body}
          maxLength={CUSTOMER_NOTE_MAX_LENGTH}
          error={error}
          onChange={(e) => {
            setBody(e.target.value);
            setError(undefined);
          }}
        />
        <SubmitButton pending={add.isPending} className="justify-self-start">
          Add note
        </SubmitButton>
      </form>
      {notes.length === 0 ? (
        <None>No notes yet.</None>
      ) : (
        <ul className="grid divide-y text-sm" aria-label="Notes, newest first">
          {notes.map((n) => (
            <li key={n.id} className="py-2" data-testid="customer-note">
              <p className="whitespace-pre-wrap wrap-anywhere">{n.body}</p>
              <p className="text-xs text-muted-foreground">
                {n.authorName} · {formatDateTime(n.createdAt)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <ShowMore pages={pages} what="notes" />
    </div>
  );
}
