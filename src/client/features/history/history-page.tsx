import { brandName } from '@shared/brands';
import { formatMoney } from '@shared/money';
import { rejectionText } from '@shared/rejections';
import { moneyStatus } from '@shared/statuses';
import type { Transaction } from '@shared/transactions';
import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, EyeIcon, ReceiptTextIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { CardSpeed } from '@/components/card-speed';
import { DateTimeStack } from '@/components/date-time';
import { RevisedOffer } from '@/components/fair/revised-offer';
import { MoneyStatusLine } from '@/components/money-status';
import { PageHeader } from '@/components/page-header';
import { PayoutProgress } from '@/components/payout-progress';
import { RejectionReason } from '@/components/rejection-reason';
import { SearchInput } from '@/components/search-input';
import { PaymentColumnBadge, StatusBadge } from '@/components/status-badge';
import { StatusFilter, type StatusFilterValue } from '@/components/status-filter';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { formatDate, formatTime } from '@/lib/dates';
import { transactionsQuery } from '@/lib/queries';
import { receiptUrl, TransactionDetailsDialog } from './transaction-details-dialog';

export function HistoryPage() {
  const { data, isLoading } = useQuery(transactionsQuery());
  const [search, setSearch] = React.useState('');
  const [status, setStatus] = React.useState<StatusFilterValue>('all');
  // The open card lives in the address (?card=), so a link in an email or a notification opens it.
  const openId = new URLSearchParams(useSearch()).get('card');
  const [, navigate] = useLocation();
  // Opening a card is a step in the browser's history, so Back closes it and stays in History
  // (issue 43, 20); closing one opened here steps back, so Forward opens it again.
  const setOpenId = (id: string | null) => {
    if (id) navigate(`/history?card=${encodeURIComponent(id)}`, { state: { openedHere: true } });
    else if ((window.history.state as { openedHere?: boolean } | null)?.openedHere)
      window.history.back();
    else navigate('/history', { replace: true });
  };

  const rows = React.useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (data ?? []).filter(
      (t) =>
        (status === 'all' || t.status === status) &&
        (!needle ||
          t.cardType.toLowerCase().includes(needle) ||
          brandName(t.cardType).toLowerCase().includes(needle) ||
          t.id.toLowerCase().includes(needle)),
    );
  }, [data, search, status]);
  // The dialog follows the polled row, so a status change shows while it is open.
  const open = data?.find((t) => t.id === openId) ?? null;

  return (
    <div>
      <PageHeader
        title="Transaction History"
        description="Every card you have submitted and its status."
        actions={
          <Button variant="outline" asChild>
            <Link href="/statement" data-testid="history-statement-link">
              <ReceiptTextIcon /> Statement
            </Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="grid gap-4 p-4 sm:p-6">
          <div className="flex flex-col gap-3 sm:flex-row">
            <SearchInput label="Search by card type or ID" value={search} onChange={setSearch} />
            <div className="sm:w-48">
              <StatusFilter value={status} onChange={setStatus} />
            </div>
          </div>
          {isLoading ? (
            <Skeleton className="h-40" />
          ) : rows.length === 0 ? (
            <div
              className="py-10 text-center text-sm text-muted-foreground"
              data-testid="history-empty"
            >
              {data?.length ? (
                'No transactions match your search.'
              ) : (
                <>
                  You have not sold a card yet.{' '}
                  <Link
                    href="/upload"
                    className="font-medium text-primary underline-offset-2 hover:underline"
                  >
                    Upload your first gift card
                  </Link>
                </>
              )}
            </div>
          ) : (
            <>
              <ul className="grid grid-cols-1 gap-3 sm:hidden">
                {rows.map((t) => (
                  <HistoryCard key={t.id} transaction={t} onView={() => setOpenId(t.id)} />
                ))}
              </ul>
              <Table data-testid="history-table" className="max-sm:hidden">
                <TableColumns
                  columns={[
                    'Date',
                    'Card Type',
                    { label: 'Value', align: 'right' },
                    'Status',
                    'Payment Status',
                    { label: 'Actions', align: 'right' },
                  ]}
                />
                <TableBody>
                  {rows.map((t) => (
                    <HistoryRow key={t.id} transaction={t} onView={() => setOpenId(t.id)} />
                  ))}
                </TableBody>
              </Table>
            </>
          )}
        </CardContent>
      </Card>
      <TransactionDetailsDialog transaction={open} onOpenChange={(o) => !o && setOpenId(null)} />
    </div>
  );
}

function RowActions({ transaction: t, onView }: { transaction: Transaction; onView: () => void }) {
  return (
    <div className="flex justify-end gap-1">
      <Button
        variant="ghost"
        size="sm"
        onClick={onView}
        aria-label={`View details of ${brandName(t.cardType)}`}
      >
        <EyeIcon /> View
      </Button>
      {/* Only for money paid: the server refuses a receipt before (decision 060). */}
      {moneyStatus(t.status, t.paymentStatus).hasReceipt && (
        <Button variant="ghost" size="sm" asChild>
          <a
            href={receiptUrl(t.id)}
            download
            aria-label={`Download receipt for ${brandName(t.cardType)}`}
          >
            <DownloadIcon /> Receipt
          </a>
        </Button>
      )}
    </div>
  );
}

/** Under 640px each transaction is a card, so no column hides off-screen. */
function HistoryCard({ transaction: t, onView }: { transaction: Transaction; onView: () => void }) {
  return (
    <li className="rounded-lg border p-4" data-testid="history-card">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="font-semibold">{brandName(t.cardType)}</p>
          <p className="text-sm text-muted-foreground">
            {formatDate(t.createdAt)} · {formatTime(t.createdAt)}
          </p>
        </div>
        <p className="font-semibold tabular-nums">{formatMoney(t.cardValue)}</p>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <StatusBadge status={t.status} />
        <PaymentColumnBadge status={t.status} paymentStatus={t.paymentStatus} />
      </div>
      <MoneyStatusLine transaction={t} className="mt-2" />
      <PayoutProgress transaction={t} className="mt-2" />
      <CardSpeed transaction={t} className="mt-2" />
      {t.offer?.status === 'pending' && <RevisedOffer transaction={t} className="mt-3" />}
      <RejectionReason transaction={t} className="mt-3" />
      <div className="mt-2 -mb-1">
        <RowActions transaction={t} onView={onView} />
      </div>
    </li>
  );
}

function HistoryRow({ transaction: t, onView }: { transaction: Transaction; onView: () => void }) {
  return (
    <TableRow data-testid="history-row">
      <TableCell>
        <DateTimeStack value={t.createdAt} />
      </TableCell>
      <TableCell className="font-medium">{brandName(t.cardType)}</TableCell>
      <TableCell className="text-right tabular-nums">{formatMoney(t.cardValue)}</TableCell>
      <TableCell>
        <StatusBadge status={t.status} />
        <MoneyStatusLine transaction={t} className="mt-1 max-w-64 whitespace-normal text-xs" />
        <PayoutProgress transaction={t} compact className="mt-1 max-w-64" />
        <CardSpeed transaction={t} className="mt-1 whitespace-normal text-xs" />
        {t.offer?.status === 'pending' && (
          <RevisedOffer transaction={t} className="mt-2 max-w-80 whitespace-normal" />
        )}
        {t.status === 'rejected' && t.rejectionReason && (
          <p
            className="mt-1 line-clamp-2 max-w-56 whitespace-normal text-xs text-muted-foreground"
            data-testid="rejection-reason"
          >
            {rejectionText(t.rejectionReason, t.rejectionNote)}
          </p>
        )}
      </TableCell>
      <TableCell>
        <PaymentColumnBadge status={t.status} paymentStatus={t.paymentStatus} />
      </TableCell>
      <TableCell className="text-right">
        <RowActions transaction={t} onView={onView} />
      </TableCell>
    </TableRow>
  );
}
