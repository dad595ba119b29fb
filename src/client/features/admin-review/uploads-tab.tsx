import { ADMIN_PAGE_SIZE, type AdminTransaction, type QueueSort } from '@shared/admin';
import { formatMoney } from '@shared/money';
import { useQuery } from '@tanstack/react-query';
import { InboxIcon, KeyboardIcon, RefreshCwIcon } from 'lucide-react';
import * as React from 'react';
import { DateTimeStack } from '@/components/date-time';
import { EmptyState } from '@/components/empty-state';
import { HoldBadge } from '@/components/hold-badge';
import { Pager, useCursorPages } from '@/components/pager';
import { SearchInput } from '@/components/search-input';
import { PaymentStatusBadge, StatusBadge } from '@/components/status-badge';
import { StatusFilter, type StatusFilterValue } from '@/components/status-filter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { adminTransactionsQuery, reviewSummaryQuery } from '@/features/admin-shared/queries';
import { useShortcuts } from '@/hooks/use-shortcuts';
import { formatDate, formatTime } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { ClaimBadge } from './review-claim';
import { ReviewDialog } from './review-dialog';
import { ShortcutsDialog } from './review-shortcuts';
import { UserCell } from './user-cell';
import { ValidationFlag } from './validation-flag';

/** The queue's selected card (J and K): a ring and a tint, in both layouts. */
const SELECTED = 'ring-2 ring-inset ring-primary bg-primary/5';

function useDebounced<T>(value: T, ms = 300) {
  const [debounced, setDebounced] = React.useState(value);
  React.useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function UploadsTab() {
  const [searchInput, setSearchInput] = React.useState('');
  const search = useDebounced(searchInput);
  const [status, setStatus] = React.useState<StatusFilterValue>('all');
  const [validation, setValidation] = React.useState<'all' | 'flagged'>('all');
  const [appeal, setAppeal] = React.useState<'all' | 'pending'>('all');
  // Oldest waiting first (issue 24): the card that has waited longest is reviewed next.
  const [sort, setSort] = React.useState<QueueSort>('waiting');
  const pages = useCursorPages(`${search}|${status}|${validation}|${appeal}|${sort}`);
  const query = useQuery(
    adminTransactionsQuery({ search, status, validation, appeal, sort, cursor: pages.cursor }),
  );
  const summary = useQuery(reviewSummaryQuery()).data;
  const target = summary?.targetMinutes;
  const now = useMinuteClock();
  const [reviewing, setReviewing] = React.useState<string | null>(null);
  const rows = query.data?.items ?? [];
  // Keyboard review (issue 21, item 4): J and K move the selection, Enter opens it, ? lists keys.
  const [selected, setSelected] = React.useState(0);
  const [showKeys, setShowKeys] = React.useState(false);
  const current = Math.min(selected, rows.length - 1);
  const move = (by: number) => setSelected(Math.max(0, Math.min(rows.length - 1, current + by)));
  useShortcuts(
    {
      j: () => move(1),
      k: () => move(-1),
      enter: () => rows[current] && setReviewing(rows[current].id),
      '?': () => setShowKeys(true),
    },
    reviewing === null && !showKeys,
  );
  const selection = (index: number) =>
    index === current
      ? { 'aria-current': true as const, 'data-selected': true, className: SELECTED }
      : {};

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row">
        <SearchInput
          label="Search card type, email or ID"
          value={searchInput}
          onChange={setSearchInput}
        />
        <div className="flex gap-2">
          <div className="flex-1 sm:w-44">
            <StatusFilter value={status} onChange={setStatus} />
          </div>
          <div className="flex-1 sm:w-40">
            <NativeSelect
              aria-label="Filter by automated checks"
              value={validation}
              onChange={(e) => setValidation(e.target.value as 'all' | 'flagged')}
            >
              <option value="all">All checks</option>
              <option value="flagged">Flagged only</option>
            </NativeSelect>
          </div>
          <div className="flex-1 sm:w-40">
            <NativeSelect
              aria-label="Filter by appeals"
              value={appeal}
              onChange={(e) => setAppeal(e.target.value as 'all' | 'pending')}
            >
              <option value="all">All cards</option>
              <option value="pending">
                {summary?.appealsPending ? `Appeals (${summary.appealsPending})` : 'Appeals'}
              </option>
            </NativeSelect>
          </div>
          <div className="flex-1 sm:w-44">
            <NativeSelect
              aria-label="Order"
              value={search ? 'newest' : sort}
              disabled={!!search}
              title={search ? 'Search results are listed newest first' : undefined}
              onChange={(e) => setSort(e.target.value as QueueSort)}
            >
              <option value="waiting">Oldest waiting first</option>
              <option value="newest">Newest first</option>
            </NativeSelect>
          </div>
          <Button
            variant="outline"
            size="icon"
            className="size-10"
            aria-label="Refresh"
            onClick={() => query.refetch()}
          >
            <RefreshCwIcon className={query.isFetching ? 'animate-spin' : undefined} />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-10"
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
            onClick={() => setShowKeys(true)}
            data-testid="show-shortcuts"
          >
            <KeyboardIcon />
          </Button>
        </div>
      </div>

      {query.isLoading ? (
        <Skeleton className="h-48" />
      ) : rows.length === 0 ? (
        <EmptyState icon={<InboxIcon />} testId="uploads-empty">
          {search || status !== 'all' || validation !== 'all' || appeal !== 'all'
            ? 'No transactions match.'
            : 'No transactions yet'}
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
                  <Button size="sm" variant="outline" onClick={() => setReviewing(t.id)}>
                    Review
                  </Button>
                </div>
                <p className="mt-2 flex items-center gap-1.5 text-sm">
                  <span className="font-semibold">{t.cardType}</span> · {formatMoney(t.cardValue)}
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
                  <PaymentStatusBadge status={t.paymentStatus} />
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
                      {t.cardType}
                      <ValidationFlag flags={t.validationFlags} />
                      <FairDealingBadges transaction={t} />
                      <ClaimBadge claimedBy={t.claimedBy} />
                    </span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatMoney(t.cardValue)}
                  </TableCell>
                  <TableCell>
                    <StatusBadge status={t.status} />
                  </TableCell>
                  <TableCell>
                    <span className="inline-flex flex-wrap items-center gap-1.5">
                      <PaymentStatusBadge status={t.paymentStatus} />
                      <HoldBadge until={t.payoutHoldUntil} />
                    </span>
                  </TableCell>
                  <TableCell className="text-right">
                    <Button size="sm" variant="outline" onClick={() => setReviewing(t.id)}>
                      Review
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
      <Pager
        page={pages.page}
        count={rows.length}
        pageSize={ADMIN_PAGE_SIZE}
        nextCursor={query.data?.nextCursor}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
      <ReviewDialog id={reviewing} onClose={() => setReviewing(null)} onOpen={setReviewing} />
      <ShortcutsDialog open={showKeys} onClose={() => setShowKeys(false)} />
    </div>
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
  const minutes = Math.max(0, Math.floor((now - new Date(t.createdAt).getTime()) / 60_000));
  const over = t.status === 'pending' && targetMinutes !== undefined && minutes > targetMinutes;
  return (
    <span
      data-testid="card-age"
      className={
        over
          ? 'rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-400/15 dark:text-red-200'
          : 'text-xs text-muted-foreground'
      }
      title={over ? 'Waiting longer than the review target' : undefined}
    >
      {shortAge(minutes)}
      {over && <span className="sr-only"> (over target)</span>}
    </span>
  );
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
    </>
  );
}
