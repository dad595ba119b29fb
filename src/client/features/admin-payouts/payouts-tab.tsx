import { brandName } from '@shared/brands';
import { type CreateDisbursementsResult, railLabel } from '@shared/disbursements';
import { formatMoney, fromCents, toCents } from '@shared/money';
import {
  type MarkSentResult,
  PAYOUT_REFERENCE_MAX_LENGTH,
  type PayoutCard,
  type PayoutGroup,
} from '@shared/payouts';
import { displayName } from '@shared/user-display';
import { useMutation, useQuery } from '@tanstack/react-query';
import { BanknoteIcon, DownloadIcon, SendIcon, ZapIcon } from 'lucide-react';
import * as React from 'react';
import { EmptyState } from '@/components/empty-state';
import { HoldBadge } from '@/components/hold-badge';
import { StatusBadge } from '@/components/status-badge';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { TextField } from '@/components/ui/text-field';
import { CustomerLink } from '@/features/admin-shared/customer-link';
import { adminPayoutsQuery } from '@/features/admin-shared/queries';
import { apiRequest } from '@/lib/api';
import { formatDate } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';
import { AchPanel } from './ach-panel';
import { DisbursementsList } from './disbursements-list';
import { payoutRailsQuery, refreshPayouts, useFollowQueue } from './queries';
import { RailsPanel } from './rails-panel';

/** The CSV of the same cards, downloaded by the browser. */
const PAYOUTS_CSV_URL = '/api/admin/payouts.csv';

/** Selected cards and the amount each showed when it was ticked (the amount being paid). */
type Selection = Map<string, string>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const sum = (amounts: string[]) => fromCents(amounts.reduce((s, a) => s + toCents(a), 0));

function resultToast(result: MarkSentResult) {
  const sent = result.sent.length;
  if (result.skipped.length === 0) {
    toast({
      title: 'Success',
      description: `${plural(sent, 'payout')} marked as sent (${formatMoney(result.total)}). Each customer was notified.`,
    });
    return;
  }
  const [first] = result.skipped;
  toast({
    title: 'Error',
    variant: 'destructive',
    description: `${sent} marked as sent; ${plural(result.skipped.length, 'card')} not marked: ${first!.message}${
      result.skipped.length > 1 ? ', and others' : ''
    }. Check the list again.`,
  });
}

/**
 * The Payouts tab, owners and finance: the rails, the cards to pay (by hand or by rail), every
 * payout made and, with the ACH rail configured, its batches.
 */
export function PayoutsTab() {
  useFollowQueue();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-10">
      <RailsPanel />
      <PayableCards />
      <DisbursementsList />
      <AchPanel />
    </div>
  );
}

/** What "Pay by rail" did: the payouts queued and the cards refused, in words. */
function PayByRailResult({
  result,
  cards,
}: {
  result: CreateDisbursementsResult;
  cards: PayoutCard[];
}) {
  const named = (id: string) => {
    const card = cards.find((c) => c.id === id);
    return card ? `${brandName(card.cardType)} of ${card.userEmail}` : id;
  };
  return (
    <div
      className="rounded-md border px-3 py-2 text-sm"
      role="status"
      data-testid="pay-by-rail-result"
    >
      <p className="font-medium">
        {result.disbursements.length > 0
          ? `${plural(result.disbursements.length, 'payout')} queued: ${result.disbursements
              .map((d) => `${formatMoney(d.amount)} by ${railLabel(d.rail)}`)
              .join(', ')}.`
          : 'No payout was queued.'}
      </p>
      {result.refused.length > 0 && (
        <ul className="mt-1 grid gap-1" data-testid="pay-by-rail-refused">
          {result.refused.map((r) => (
            <li key={r.transactionId}>
              <span className="font-medium">{named(r.transactionId)}</span>
              <span className="text-muted-foreground">
                {' '}
                · {REFUSAL_WORDS[r.reason]}: {r.message}
                {r.until ? ` (until ${formatDate(r.until)})` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const REFUSAL_WORDS: Record<CreateDisbursementsResult['refused'][number]['reason'], string> = {
  not_payable: 'Not paid by a rail',
  held: 'Held',
  in_payout: 'Already in a payout',
};

/** The approved cards waiting for payment: marked sent by hand, or handed to their rail. */
function PayableCards() {
  const query = useQuery(adminPayoutsQuery());
  const rails = useQuery(payoutRailsQuery());
  const anyRail = rails.data?.some((r) => r.kind !== 'manual' && r.configured) ?? false;
  const [paying, setPaying] = React.useState(false);
  const [railResult, setRailResult] = React.useState<{
    result: CreateDisbursementsResult;
    cards: PayoutCard[];
  } | null>(null);
  const [selection, setSelection] = React.useState<Selection>(new Map());
  const [confirming, setConfirming] = React.useState(false);
  const [reference, setReference] = React.useState('');
  const cards = React.useMemo(() => query.data?.groups.flatMap((g) => g.cards) ?? [], [query.data]);
  // Only cards still listed count: one paid or changed elsewhere drops out of the selection.
  const chosen = cards.filter((c) => selection.has(c.id));
  const chosenTotal = sum(chosen.map((c) => selection.get(c.id)!));

  const toggle = (list: PayoutCard[], on: boolean) =>
    setSelection((current) => {
      const next = new Map(current);
      for (const card of list) {
        if (on) next.set(card.id, card.amount);
        else next.delete(card.id);
      }
      return next;
    });

  const markSent = useMutation({
    mutationFn: async () =>
      (await (
        await apiRequest('POST', '/api/admin/payouts/mark-sent', {
          items: chosen.map((c) => ({ id: c.id, amount: selection.get(c.id) })),
          payoutReference: reference.trim() || null,
        })
      ).json()) as MarkSentResult,
    onSuccess: async (result) => {
      setConfirming(false);
      setSelection(new Map());
      setReference('');
      await refreshPayouts();
      resultToast(result);
    },
    onError: (error) => {
      setConfirming(false);
      errorToast('Failed to mark payouts as sent')(error);
    },
  });

  const payByRail = useMutation({
    mutationFn: async () =>
      (await (
        await apiRequest('POST', '/api/admin/disbursements', {
          transactionIds: chosen.map((c) => c.id),
        })
      ).json()) as CreateDisbursementsResult,
    onSuccess: async (result) => {
      setPaying(false);
      setRailResult({ result, cards: chosen });
      setSelection(new Map());
      await refreshPayouts();
    },
    onError: (error) => {
      setPaying(false);
      errorToast('Could not queue the payouts')(error);
    },
  });

  if (query.isLoading || !query.data) return <Skeleton className="h-48" />;
  const { groups, count, total, more, held } = query.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="payouts">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="font-semibold" data-testid="payouts-summary">
            {plural(count, 'card')} to pay · {formatMoney(total)}
          </p>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {chosen.length > 0
              ? `${chosen.length} selected · ${formatMoney(chosenTotal)}`
              : 'Approved cards whose payment is pending, oldest first.'}
          </p>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" asChild>
            <a href={PAYOUTS_CSV_URL} download data-testid="export-payouts">
              <DownloadIcon /> Export CSV
            </a>
          </Button>
          {anyRail && (
            <Button
              variant="outline"
              disabled={chosen.length === 0}
              onClick={() => setPaying(true)}
              data-testid="pay-by-rail"
            >
              <ZapIcon /> Pay by rail
            </Button>
          )}
          <Button
            disabled={chosen.length === 0}
            onClick={() => setConfirming(true)}
            data-testid="mark-sent"
          >
            <SendIcon /> Mark selected as sent
          </Button>
        </div>
      </div>
      {railResult && <PayByRailResult result={railResult.result} cards={railResult.cards} />}
      {more > 0 && (
        <p className="rounded-md border bg-muted/50 px-3 py-2 text-sm">
          {plural(more, 'more card')} wait behind these. Pay and mark these first, and the next ones
          appear.
        </p>
      )}
      {held.length > 0 && (
        <details
          className="rounded-md border bg-amber-50/60 px-3 py-2 text-sm dark:bg-amber-400/5"
          data-testid="payouts-held"
        >
          <summary className="cursor-pointer font-medium">
            {plural(held.length, 'approved card')} left out: not payable yet
          </summary>
          <ul className="mt-2 grid gap-2">
            {held.map((h) => (
              <li key={h.id} className="flex flex-wrap items-center gap-2" data-testid="held-card">
                <CustomerLink userId={h.userId} className="font-medium">
                  {h.userEmail}
                </CustomerLink>
                <span className="text-muted-foreground">
                  {brandName(h.cardType)} · {formatMoney(h.amount)}
                </span>
                <HoldBadge until={h.payoutHoldUntil} />
                <span className="text-muted-foreground">{h.message}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {groups.length === 0 ? (
        <EmptyState icon={<BanknoteIcon />} testId="payouts-empty">
          No payouts waiting
        </EmptyState>
      ) : (
        groups.map((group) => (
          <PayoutGroupList
            key={group.type ?? 'none'}
            group={group}
            selection={selection}
            onToggle={toggle}
          />
        ))
      )}
      <ConfirmDialog
        open={paying}
        onOpenChange={setPaying}
        title={`Pay ${plural(chosen.length, 'card')} by rail?`}
        description={`Each card is queued on the automatic rail of its payment method (ACH for bank transfers, the hot wallet for USDT BEP-20), one payout per customer: ${formatMoney(chosenTotal)} in all. Cards whose method is paid by hand, held or already in a payout are left out, and you are told why.`}
        confirmLabel="Queue payouts"
        pendingLabel="Queueing..."
        pending={payByRail.isPending}
        onConfirm={() => payByRail.mutate()}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Mark ${plural(chosen.length, 'payout')} as sent?`}
        description={`Only do this once the money has gone out: ${formatMoney(chosenTotal)} to ${plural(
          new Set(chosen.map((c) => c.userId)).size,
          'customer',
        )}. Each card becomes Payment Sent and Completed with its amount recorded as paid, and each customer is notified.`}
        confirmLabel="Mark as sent"
        pendingLabel="Marking..."
        pending={markSent.isPending}
        onConfirm={() => markSent.mutate()}
      >
        <TextField
          id="payout-reference"
          label="Payout reference (optional)"
          placeholder="Transfer or batch id, printed on each receipt"
          maxLength={PAYOUT_REFERENCE_MAX_LENGTH}
          value={reference}
          onChange={(e) => setReference(e.target.value)}
        />
      </ConfirmDialog>
    </div>
  );
}

function PayoutGroupList({
  group,
  selection,
  onToggle,
}: {
  group: PayoutGroup;
  selection: Selection;
  onToggle: (cards: PayoutCard[], on: boolean) => void;
}) {
  const picked = group.cards.filter((c) => selection.has(c.id)).length;
  const headingId = `payout-group-${group.type ?? 'none'}`;
  return (
    <section
      aria-labelledby={headingId}
      className="overflow-hidden rounded-lg border"
      data-testid="payout-group"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 bg-muted/50 px-3 py-2.5">
        <Checkbox
          checked={picked === 0 ? false : picked === group.cards.length ? true : 'indeterminate'}
          onCheckedChange={(on) => onToggle(group.cards, on === true)}
          aria-label={`Select every ${group.label} payout`}
        />
        <h2 id={headingId} className="font-semibold">
          {group.label}
        </h2>
        <span className="text-sm text-muted-foreground">{plural(group.count, 'card')}</span>
        <span className="ml-auto font-semibold tabular-nums" data-testid="payout-group-total">
          {formatMoney(group.total)}
        </span>
      </div>
      <div
        aria-hidden
        className={`${ROW_GRID} hidden border-b py-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground md:grid`}
      >
        <span className="col-start-2">Customer</span>
        <span>Pay to</span>
        <span>Card</span>
        <span className="text-right">Amount</span>
      </div>
      <ul className="divide-y">
        {group.cards.map((card) => (
          <PayoutRow
            key={card.id}
            card={card}
            selectedAmount={selection.get(card.id)}
            onToggle={(on) => onToggle([card], on)}
          />
        ))}
      </ul>
    </section>
  );
}

/** A row's columns: a checkbox, then stacked on a phone, side by side from md up. */
const ROW_GRID =
  'grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 px-3 md:grid-cols-[1rem_minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,1fr)_8rem]';

/** A cell's name: shown on a phone, where there is no header row; read out everywhere. */
function CellLabel({ children }: { children: string }) {
  return (
    <span className="block text-xs font-medium uppercase tracking-wide text-muted-foreground md:sr-only">
      {children}
    </span>
  );
}

/** Where the money goes, as a person paying needs it. */
function PayTo({ card: c }: { card: PayoutCard }) {
  if (!c.paymentMethodType) return <span className="text-muted-foreground">No payment method</span>;
  const details =
    c.paymentMethodType === 'bank_transfer'
      ? [
          c.paymentMethodBankName,
          c.paymentMethodAccountNumber && `Account ${c.paymentMethodAccountNumber}`,
          c.paymentMethodRoutingNumber && `Routing ${c.paymentMethodRoutingNumber}`,
        ]
      : [c.paymentMethodIdentifier];
  return (
    <>
      <span className="block font-medium">{c.paymentMethodAccountName}</span>
      <span className="block break-all text-muted-foreground">
        {details.filter(Boolean).join(' · ')}
      </span>
    </>
  );
}

function PayoutRow({
  card: c,
  selectedAmount,
  onToggle,
}: {
  card: PayoutCard;
  selectedAmount: string | undefined;
  onToggle: (on: boolean) => void;
}) {
  const name = displayName({
    email: c.userEmail,
    firstName: c.userFirstName,
    lastName: c.userLastName,
  });
  const changed = selectedAmount !== undefined && toCents(selectedAmount) !== toCents(c.amount);
  return (
    <li className={`${ROW_GRID} items-start py-3 text-sm`} data-testid="payout-row">
      <Checkbox
        className="mt-0.5"
        checked={selectedAmount !== undefined}
        onCheckedChange={(on) => onToggle(on === true)}
        aria-label={`Select the payout of ${formatMoney(c.amount)} to ${name} for ${brandName(c.cardType)}`}
      />
      <div className="min-w-0">
        <CustomerLink userId={c.userId} className="block truncate font-medium">
          {name}
        </CustomerLink>
        {name !== c.userEmail && (
          <span className="block truncate text-muted-foreground">{c.userEmail}</span>
        )}
      </div>
      <div className="col-start-2 min-w-0 md:col-start-auto">
        <CellLabel>Pay to</CellLabel>
        <PayTo card={c} />
      </div>
      <div className="col-start-2 flex flex-wrap items-center gap-2 md:col-start-auto">
        <span>
          {brandName(c.cardType)} · {formatMoney(c.cardValue)}
        </span>
        <StatusBadge status={c.status} />
        <span className="text-xs text-muted-foreground">{formatDate(c.createdAt)}</span>
      </div>
      <div className="col-start-2 md:col-start-auto md:text-right">
        <span className="font-semibold tabular-nums" data-testid="payout-amount">
          {formatMoney(c.amount)}
        </span>
        {c.paymentAmount === null && (
          <span className="block text-xs text-muted-foreground">expected payout</span>
        )}
        {changed && (
          <span className="block text-xs font-medium text-destructive" role="status">
            was {formatMoney(selectedAmount)} when selected: select it again
          </span>
        )}
      </div>
    </li>
  );
}
