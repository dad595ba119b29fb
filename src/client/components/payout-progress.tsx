import { railLabel } from '@shared/disbursements';
import { moneyStatus } from '@shared/statuses';
import type { Transaction } from '@shared/transactions';
import { AlertTriangleIcon, CheckIcon, ExternalLinkIcon } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';

/** The steps a payout on a rail takes, as its seller reads them. */
const STEPS = [
  { status: 'queued', label: 'Queued' },
  { status: 'submitted', label: 'Sent' },
  { status: 'confirmed', label: 'Confirmed' },
] as const;

/** A reference as it fits a phone: a transaction hash by its ends, anything else whole. */
const shortReference = (reference: string) =>
  /^0x[0-9a-fA-F]{64}$/.test(reference)
    ? `${reference.slice(0, 10)}…${reference.slice(-8)}`
    : reference;

/**
 * A card's payout on an automatic rail (issue 40): queued → sent (with the rail's reference; a
 * transaction hash links to the explorer) → confirmed, or failed with its reason and a link to
 * fix the payment method. Nothing for a card paid by hand or cancelled back to the manual list.
 * It follows the card's live updates (the transactions topic). A failure shows only while the card
 * still waits for payment.
 */
export function PayoutProgress({
  transaction: { payout, status, paymentStatus },
  compact = false,
  className,
}: {
  transaction: Pick<Transaction, 'payout' | 'status' | 'paymentStatus'>;
  /** In a table row: the step and the reference only. */
  compact?: boolean;
  className?: string;
}) {
  if (!payout || payout.status === 'cancelled') return null;
  if (payout.status === 'failed') {
    // Only while the card still waits for its money: paid by hand since, or no longer payable,
    // the old failure is history (the timeline keeps it).
    if (moneyStatus(status, paymentStatus).key !== 'approved') return null;
    return (
      <div
        className={cn(
          'flex items-start gap-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-950 dark:border-red-400/30 dark:bg-red-400/10 dark:text-red-100',
          compact && 'whitespace-normal px-2 py-1.5 text-xs',
          className,
        )}
        data-testid="payout-progress"
        data-status="failed"
      >
        <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p>
          <span className="font-semibold">Payout failed</span>
          {payout.reason ? `: ${payout.reason}.` : '.'} Please check your{' '}
          <Link href="/payment-methods" className="font-medium underline underline-offset-2">
            payment method
          </Link>
          ; we pay the card again once it is right.
        </p>
      </div>
    );
  }
  const at = STEPS.findIndex((s) => s.status === payout.status);
  const reference = payout.reference && (
    <span className="min-w-0 text-muted-foreground">
      Reference{' '}
      {payout.url ? (
        <a
          href={payout.url}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 font-mono font-medium text-primary underline-offset-2 hover:underline"
          title={payout.reference}
          data-testid="payout-reference"
        >
          {shortReference(payout.reference)}
          <ExternalLinkIcon className="size-3.5" aria-hidden />
          <span className="sr-only">(opens the transaction on the explorer)</span>
        </a>
      ) : (
        <span className="font-mono [overflow-wrap:anywhere]" data-testid="payout-reference">
          {payout.reference}
        </span>
      )}
    </span>
  );
  const label = STEPS[at]?.label ?? payout.status;
  if (compact) {
    return (
      <p
        className={cn('grid gap-0.5 whitespace-normal text-xs', className)}
        data-testid="payout-progress"
        data-status={payout.status}
      >
        <span className="font-medium">
          Payout {label.toLowerCase()} · {railLabel(payout.rail)}
        </span>
        {reference}
      </p>
    );
  }
  return (
    <div
      className={cn('grid gap-2 rounded-md border px-3 py-2.5 text-sm', className)}
      data-testid="payout-progress"
      data-status={payout.status}
    >
      <p className="font-medium">
        Payout by {railLabel(payout.rail)}:{' '}
        <span className="text-primary" data-testid="payout-step">
          {label}
        </span>
      </p>
      <ol className="flex items-center gap-1.5 text-xs" aria-label="Payout steps">
        {STEPS.map((step, i) => {
          const done = i <= at;
          return (
            <li key={step.status} className="flex min-w-0 items-center gap-1.5">
              {i > 0 && (
                <span
                  aria-hidden
                  className={cn('h-px w-4 shrink-0 sm:w-8', done ? 'bg-primary' : 'bg-border')}
                />
              )}
              <span
                aria-hidden
                className={cn(
                  'flex size-4 shrink-0 items-center justify-center rounded-full border',
                  done ? 'border-primary bg-primary text-primary-foreground' : 'border-border',
                )}
              >
                {done && <CheckIcon className="size-3" />}
              </span>
              <span className={cn(done ? 'font-medium' : 'text-muted-foreground')}>
                {step.label}
                <span className="sr-only">{done ? ' (done)' : ' (to come)'}</span>
              </span>
            </li>
          );
        })}
      </ol>
      {reference && <p className="text-xs [overflow-wrap:anywhere]">{reference}</p>}
    </div>
  );
}
