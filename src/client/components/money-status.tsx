import { formatMoney } from '@shared/money';
import { moneyStatus } from '@shared/statuses';
import type { Transaction } from '@shared/transactions';
import { formatDate } from '@/lib/dates';
import { cn } from '@/lib/utils';

type Money = Pick<
  Transaction,
  'status' | 'paymentStatus' | 'paymentAmount' | 'expectedPayout' | 'paidAt'
> & { offer?: Transaction['offer'] };

/** What the money line says after the plain status: the amount to come or paid; nothing if none. */
export function moneyDetail(t: Money): string | null {
  const s = moneyStatus(t.status, t.paymentStatus);
  switch (s.key) {
    case 'under_review':
      return `Expected payout ${formatMoney(t.expectedPayout)}`;
    case 'approved':
      return `${formatMoney(t.paymentAmount ?? t.expectedPayout)} to be paid`;
    case 'paid':
      return `${formatMoney(t.paymentAmount ?? t.expectedPayout)} paid${t.paidAt ? ` on ${formatDate(t.paidAt)}` : ''}`;
    default:
      return null;
  }
}

const TEXT = {
  yellow: 'text-yellow-800 dark:text-yellow-300',
  blue: 'text-blue-800 dark:text-blue-300',
  green: 'text-green-800 dark:text-green-300',
  red: 'text-red-800 dark:text-red-300',
  gray: 'text-muted-foreground',
} as const;

/**
 * One plain line about the card's money (decision 060): "Approved (awaiting payment) · $91.00 to
 * be paid", "Paid · $91.00 paid on Mar 01, 2026", "Rejected (no payout)". A rejected card shows no
 * payout at all.
 */
export function MoneyStatusLine({
  transaction: t,
  className,
  amount = true,
}: {
  transaction: Money;
  className?: string;
  /** false: the status alone, where the amount is shown beside it already. */
  amount?: boolean;
}) {
  // A revised offer waiting for an answer holds the money (decision 073): nothing is approved yet.
  if (t.offer?.status === 'pending') {
    return (
      <p className={cn('text-sm', className)} data-testid="money-status" data-status="offer">
        <span className={cn('font-semibold', TEXT.yellow)}>Waiting for your answer</span>
        <span className="text-muted-foreground"> · revised offer below</span>
      </p>
    );
  }
  const s = moneyStatus(t.status, t.paymentStatus);
  const detail = amount ? moneyDetail(t) : null;
  return (
    <p className={cn('text-sm', className)} data-testid="money-status" data-status={s.key}>
      <span className={cn('font-semibold', TEXT[s.colour])}>{s.label}</span>
      {detail && <span className="text-muted-foreground"> · {detail}</span>}
    </p>
  );
}
