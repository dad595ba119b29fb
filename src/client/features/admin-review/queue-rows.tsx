import type { AdminTransaction } from '@shared/admin';
import { brandName } from '@shared/brands';
import { formatMoney } from '@shared/money';
import { NO_PAYOUT } from '@shared/statuses';
import { InboxIcon } from 'lucide-react';
import * as React from 'react';
import { DateTimeStack } from '@/components/date-time';
import { EmptyState } from '@/components/empty-state';
import { HoldBadge } from '@/components/hold-badge';
import { PaymentStatusBadge, StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { formatDate, formatTime } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { ClaimBadge } from './review-claim';
import { UserCell } from './user-cell';
import { ValidationFlag } from './validation-flag';

/** The queue's selected card (J and K): a ring and a tint, in both layouts. */
const SELECTED = 'ring-2 ring-inset ring-primary bg-primary/5';

/** The queue's cards: a list of cards on a phone, a table from the small breakpoint up. */
export function QueueRows({
  rows,
  loading,
  filtered,
  current,
  targetMinutes: target,
  onReview,
}: {
  rows: AdminTransaction[];
  loading: boolean;
  /** A search or a filter is on (the empty queue says "No transactions match."). */
  filtered: boolean;
  /** The selected row's index. */
  current: number;
  targetMinutes: number | undefined;
  /** Opens a card; `index` becomes the selected row, so the highlight and the focus agree. */
  onReview: (id: string, index: number) => void;
}) {
  const now = useMinuteClock();
  const selection = (index: number) =>
    index === current
      ? { 'aria-current': true as const, 'data-selected': true, className: SELECTED }
      : {};
  return loading ? (
    <Skeleton className="h-48" />
  ) : rows.length === 0 ? (
    <EmptyState icon={<InboxIcon />} testId="uploads-empty">
      {filtered ? 'No transactions match.' : 'No transactions yet'}
    </EmptyState>
  ) : (
    <>
      <ul className="grid grid-cols-1 gap-3 sm:hidden">
        {rows.map((t, index) => (
          <li
            key={t.id}
            className={cn('rounded-lg border p-4', index === current && SELECTED)}
            data-testid="upload-card"
            aria-current={index === current || undefined}
          >
            <div className="flex items-start justify-between gap-3">
              <UserCell
                id={t.userId}
                email={t.userEmail}
                firstName={t.userFirstName}
                lastName={t.userLastName}
              />
              <ReviewButton transaction={t} index={index} onReview={onReview} />
            </div>
            <p className="mt-2 flex items-center gap-1.5 text-sm">
              <span className="font-semibold">{brandName(t.cardType)}</span> ·{' '}
              {formatMoney(t.cardValue)}
              <ValidationFlag flags={t.validationFlags} />
              <FairDealingBadges transaction={t} />
              <ClaimBadge claimedBy={t.claimedBy} />
            </p>
            <p className="text-xs text-muted-foreground">
              {formatDate(t.createdAt)} {formatTime(t.createdAt)} ·{' '}
              <CardAge transaction={t} now={now} targetMinutes={target} />
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <StatusBadge status={t.status} />
              <QueuePayment transaction={t} />
              <HoldBadge until={t.payoutHoldUntil} />
            </div>
          </li>
        ))}
      </ul>
      <Table data-testid="uploads-table" className="max-sm:hidden">
        <TableColumns
          columns={[
            'Date & Time',
            'Age',
            'User',
            'Card Type',
            { label: 'Value', align: 'right' },
            'Status',
            'Payment',
            { label: 'Actions', align: 'right' },
          ]}
        />
        <TableBody>
          {rows.map((t, index) => (
            <TableRow key={t.id} data-testid="upload-row" {...selection(index)}>
              <TableCell>
                <DateTimeStack value={t.createdAt} />
              </TableCell>
              <TableCell>
                <CardAge transaction={t} now={now} targetMinutes={target} />
              </TableCell>
              <TableCell>
                <UserCell
                  id={t.userId}
                  email={t.userEmail}
                  firstName={t.userFirstName}
                  lastName={t.userLastName}
                />
              </TableCell>
              <TableCell className="font-medium">
                <span className="inline-flex items-center gap-1.5">
                  {brandName(t.cardType)}
                  <ValidationFlag flags={t.validationFlags} />
                  <FairDealingBadges transaction={t} />
                  <ClaimBadge claimedBy={t.claimedBy} />
                </span>
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(t.cardValue)}</TableCell>
              <TableCell>
                <StatusBadge status={t.status} />
              </TableCell>
              <TableCell>
                <span className="inline-flex flex-wrap items-center gap-1.5">
                  <QueuePayment transaction={t} />
                  <HoldBadge until={t.payoutHoldUntil} />
                </span>
              </TableCell>
              <TableCell className="text-right">
                <ReviewButton transaction={t} index={index} onReview={onReview} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

/**
 * A row's Review button. It names its card to a screen reader, and carries the row's index so the
 * queue can move the focus onto the selected row's button (issue 43, item 9): Enter on a focused
 * button opens that button's card, so the focus must follow the highlight.
 */
function ReviewButton({
  transaction: t,
  index,
  onReview,
}: {
  transaction: AdminTransaction;
  index: number;
  onReview: (id: string, index: number) => void;
}) {
  return (
    <Button
      size="sm"
      variant="outline"
      data-review-index={index}
      aria-label={`Review ${brandName(t.cardType)} ${formatMoney(t.cardValue)} from ${t.userEmail ?? 'a customer'}`}
      onClick={() => onReview(t.id, index)}
    >
      Review
    </Button>
  );
}

/** The time now, to the minute: the ages in the queue move on their own. */
function useMinuteClock() {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const shortAge = (minutes: number) =>
  minutes < 60
    ? `${minutes}m`
    : minutes < 48 * 60
      ? `${Math.floor(minutes / 60)}h ${minutes % 60}m`
      : `${Math.floor(minutes / 1440)}d`;

/**
 * How long a card has waited (decision 073); a pending card past the review target is
 * highlighted. A card staff already decided shows its age plainly.
 */
function CardAge({
  transaction: t,
  now,
  targetMinutes,
}: {
  transaction: AdminTransaction;
  now: number;
  targetMinutes: number | undefined;
}) {
  // A decided card's age stops at its first decision: how long it waited (issue 43, item 20).
  const until =
    t.status !== 'pending' && t.firstDecisionAt ? new Date(t.firstDecisionAt).getTime() : now;
  const minutes = Math.max(0, Math.floor((until - new Date(t.createdAt).getTime()) / 60_000));
  const over = t.status === 'pending' && targetMinutes !== undefined && minutes > targetMinutes;
  return (
    <span
      data-testid="card-age"
      className={
        over
          ? 'rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-400/15 dark:text-red-200'
          : 'text-xs text-muted-foreground'
      }
      title={
        over
          ? 'Waiting longer than the review target'
          : t.status !== 'pending'
            ? 'Waited this long for its first decision'
            : undefined
      }
    >
      {shortAge(minutes)}
      {over && <span className="sr-only"> (over target)</span>}
    </span>
  );
}

/** A rejected card pays nothing: "No payout", not "Payment Pending" (issue 43, item 20). */
function QueuePayment({ transaction: t }: { transaction: AdminTransaction }) {
  if (t.status === 'rejected') {
    return (
      <span className="text-xs text-muted-foreground" data-testid="queue-no-payout">
        {NO_PAYOUT}
      </span>
    );
  }
  return <PaymentStatusBadge status={t.paymentStatus} />;
}

const OFFER_BADGES = {
  pending: 'Offer pending',
  accepted: 'Offer accepted',
  declined: 'Offer declined',
  expired: 'Offer expired',
} as const;

/** A waiting appeal, and the revised offer's state, at a glance in the queue (decision 073). */
function FairDealingBadges({ transaction: t }: { transaction: AdminTransaction }) {
  return (
    <>
      {t.appeal?.status === 'pending' && (
        <Badge variant="outline" data-testid="appeal-badge">
          Appeal
        </Badge>
      )}
      {t.offer && (
        <Badge variant="outline" data-testid="offer-badge">
          {OFFER_BADGES[t.offer.status]}
        </Badge>
      )}
      {t.instantDecision && 'rules' in t.instantDecision && (
        <Badge variant="outline" data-testid="instant-badge">
          {t.sampleStatus === 'pending' ? 'Instant · sampled' : 'Instant'}
        </Badge>
      )}
    </>
  );
}
