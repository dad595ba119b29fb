import {
  DISBURSEMENT_STATUSES,
  type Disbursement,
  type DisbursementStatus,
  railLabel,
} from '@shared/disbursements';
import { formatMoney } from '@shared/money';
import type { BadgeColour } from '@shared/statuses';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ExternalLinkIcon, RotateCwIcon, SendIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { EmptyState } from '@/components/empty-state';
import { Pager, useCursorPages } from '@/components/pager';
import { ColouredBadge } from '@/components/status-badge';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { apiRequest } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';
import { type DisbursementPage, disbursementsQuery, refreshPayouts } from './queries';

/** A payout's state as staff read it (the API's `submitted` is "Sent", as the card says). */
export const PAYOUT_STATUS: Record<DisbursementStatus, { label: string; colour: BadgeColour }> = {
  queued: { label: 'Queued', colour: 'yellow' },
  submitted: { label: 'Sent', colour: 'blue' },
  confirmed: { label: 'Confirmed', colour: 'green' },
  failed: { label: 'Failed', colour: 'red' },
  cancelled: { label: 'Cancelled', colour: 'gray' },
};

const PAGE_SIZE = 50;

/** A reference as it fits a row: a hash by its ends, anything else whole. */
export const shortReference = (reference: string) =>
  /^0x[0-9a-fA-F]{64}$/.test(reference)
    ? `${reference.slice(0, 10)}…${reference.slice(-8)}`
    : reference;

type Action = { kind: 'retry' | 'cancel'; payout: Disbursement };

/**
 * The payouts as records (issue 40): every rail's, newest first, by status, a page at a time;
 * Retry a failed one, Cancel a queued one.
 */
export function DisbursementsList() {
  const [status, setStatus] = React.useState<DisbursementStatus | 'all'>('all');
  const pages = useCursorPages(status);
  const { data, isLoading } = useQuery(disbursementsQuery(status, pages.cursor));
  const [action, setAction] = React.useState<Action | null>(null);
  const act = useMutation({
    mutationFn: async ({ kind, payout }: Action) =>
      (await (
        await apiRequest('POST', `/api/admin/disbursements/${payout.id}/${kind}`)
      ).json()) as Disbursement,
    onSuccess: async (payout, { kind }) => {
      setAction(null);
      await refreshPayouts();
      toast({
        title: 'Success',
        description:
          kind === 'retry'
            ? `The payout of ${formatMoney(payout.amount)} to ${payout.customerEmail} is queued again.`
            : `The payout to ${payout.customerEmail} is cancelled: its cards are back in the list to pay.`,
      });
    },
    onError: (error) => {
      setAction(null);
      void refreshPayouts();
      errorToast('Could not change the payout')(error);
    },
  });
  return (
    <section
      className="grid grid-cols-[minmax(0,1fr)] gap-3"
      aria-labelledby="disbursements-heading"
      data-testid="disbursements"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="disbursements-heading" className="font-semibold">
            Payouts
          </h2>
          <p className="text-sm text-muted-foreground">
            Every payout made, on every rail, newest first: queued, sent, confirmed or failed.
          </p>
        </div>
        <Field id="disbursement-status" label="Status" className="sm:w-44">
          <NativeSelect
            id="disbursement-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as DisbursementStatus | 'all')}
          >
            <option value="all">All</option>
            {DISBURSEMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {PAYOUT_STATUS[s].label}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <DisbursementRows data={data} loading={isLoading} onAction={setAction} />
      <Pager
        pages={pages}
        count={data?.items.length ?? 0}
        nextCursor={data?.nextCursor}
        pageSize={PAGE_SIZE}
      />
      <ConfirmDialog
        open={action !== null}
        onOpenChange={(open) => !open && setAction(null)}
        title={action?.kind === 'retry' ? 'Retry this payout?' : 'Cancel this payout?'}
        description={
          action?.kind === 'retry'
            ? `${formatMoney(action.payout.amount)} to ${action.payout.customerEmail} is queued again on ${railLabel(action.payout.rail)}, as a new attempt. Check the reason it failed has been fixed first (${action.payout.lastError ?? 'no reason recorded'}).`
            : `${action ? formatMoney(action.payout.amount) : ''} to ${action?.payout.customerEmail ?? ''} will not be sent. Its cards go back to the list of cards to pay.`
        }
        confirmLabel={action?.kind === 'retry' ? 'Retry payout' : 'Cancel payout'}
        pendingLabel="Saving..."
        pending={act.isPending}
        onConfirm={() => action && act.mutate(action)}
      />
    </section>
  );
}

function DisbursementRows({
  data,
  loading,
  onAction,
}: {
  data: DisbursementPage | undefined;
  loading: boolean;
  onAction: (action: Action) => void;
}) {
  if (loading || !data) return <Skeleton className="h-32" />;
  if (data.items.length === 0) {
    return (
      <EmptyState icon={<SendIcon />} testId="disbursements-empty">
        No payouts here yet
      </EmptyState>
    );
  }
  return (
    <div className="overflow-hidden rounded-lg border">
      <div
        aria-hidden
        className={`${ROW_GRID} hidden border-b bg-muted/50 py-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground md:grid`}
      >
        <span>Customer</span>
        <span>Rail and state</span>
        <span>Reference</span>
        <span className="text-right">Amount</span>
      </div>
      <ul className="divide-y">
        {data.items.map((d) => (
          <DisbursementRow key={d.id} payout={d} onAction={onAction} />
        ))}
      </ul>
    </div>
  );
}

const ROW_GRID =
  'grid grid-cols-[minmax(0,1fr)] gap-x-4 gap-y-2 px-3 md:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)_minmax(0,1.2fr)_8rem]';

function CellLabel({ children }: { children: string }) {
  return (
    <span className="block text-xs font-medium uppercase tracking-wide text-muted-foreground md:sr-only">
      {children}
    </span>
  );
}

function DisbursementRow({
  payout: d,
  onAction,
}: {
  payout: Disbursement;
  onAction: (action: Action) => void;
}) {
  const state = PAYOUT_STATUS[d.status];
  return (
    <li
      className={`${ROW_GRID} items-start py-3 text-sm`}
      data-testid="disbursement-row"
      data-status={d.status}
    >
      <div className="min-w-0">
        <span className="block truncate font-medium">{d.customerName || d.customerEmail}</span>
        {d.customerName !== d.customerEmail && (
          <span className="block truncate text-muted-foreground">{d.customerEmail}</span>
        )}
        <span className="block text-xs text-muted-foreground">
          {d.transactionIds.length === 1 ? '1 card' : `${d.transactionIds.length} cards`} ·{' '}
          {formatDateTime(d.createdAt)}
        </span>
      </div>
      <div className="grid min-w-0 justify-items-start gap-1">
        <CellLabel>Rail and state</CellLabel>
        <span>{railLabel(d.rail)}</span>
        <ColouredBadge colour={state.colour} label={state.label} testId="disbursement-status" />
        {d.attempts > 1 && (
          <span className="text-xs text-muted-foreground">{d.attempts} attempts</span>
        )}
      </div>
      <div className="min-w-0">
        <CellLabel>Reference</CellLabel>
        {d.reference ? (
          d.url ? (
            <a
              href={d.url}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 font-mono text-xs font-medium text-primary underline-offset-2 hover:underline"
              data-testid="disbursement-reference"
              title={d.reference}
            >
              {shortReference(d.reference)} <ExternalLinkIcon className="size-3.5" aria-hidden />
              <span className="sr-only">(opens the transaction on the explorer)</span>
            </a>
          ) : (
            <span
              className="font-mono text-xs [overflow-wrap:anywhere]"
              data-testid="disbursement-reference"
            >
              {d.reference}
            </span>
          )
        ) : (
          <span className="text-muted-foreground">None yet</span>
        )}
        {d.lastError && (
          <p
            className={`mt-1 text-xs ${d.status === 'failed' ? 'font-medium text-destructive' : 'text-muted-foreground'}`}
            data-testid="disbursement-error"
          >
            {d.status === 'failed' ? 'Failed: ' : ''}
            {d.lastError}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2 md:grid md:justify-items-end">
        <span className="font-semibold tabular-nums" data-testid="disbursement-amount">
          {formatMoney(d.amount)}
        </span>
        {d.status === 'failed' && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => onAction({ kind: 'retry', payout: d })}
            aria-label={`Retry the payout of ${formatMoney(d.amount)} to ${d.customerEmail}`}
          >
            <RotateCwIcon /> Retry
          </Button>
        )}
        {d.status === 'queued' && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => onAction({ kind: 'cancel', payout: d })}
            aria-label={`Cancel the payout of ${formatMoney(d.amount)} to ${d.customerEmail}`}
          >
            <XIcon /> Cancel
          </Button>
        )}
      </div>
    </li>
  );
}
