import {
  type BadgeColour,
  moneyStatus,
  paymentStatusColour,
  paymentStatusLabel,
  statusColour,
  statusLabel,
} from '@shared/statuses';
import { cn } from '@/lib/utils';

const COLOURS: Record<BadgeColour, string> = {
  yellow:
    'bg-yellow-100 text-yellow-800 border-yellow-200 dark:bg-yellow-400/15 dark:text-yellow-300 dark:border-yellow-400/25',
  blue: 'bg-blue-100 text-blue-800 border-blue-200 dark:bg-blue-400/15 dark:text-blue-300 dark:border-blue-400/25',
  green:
    'bg-green-100 text-green-800 border-green-200 dark:bg-green-400/15 dark:text-green-300 dark:border-green-400/25',
  red: 'bg-red-100 text-red-800 border-red-200 dark:bg-red-400/15 dark:text-red-300 dark:border-red-400/25',
  gray: 'bg-muted text-muted-foreground border-border',
};

export function ColouredBadge({
  colour,
  label,
  testId,
}: {
  colour: BadgeColour;
  label: string;
  testId: string;
}) {
  return (
    <span
      data-testid={testId}
      data-colour={colour}
      className={cn(
        'inline-flex items-center whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        COLOURS[colour],
      )}
    >
      {label}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <ColouredBadge
      colour={statusColour(status)}
      label={statusLabel(status)}
      testId="status-badge"
    />
  );
}

export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <ColouredBadge
      colour={paymentStatusColour(status)}
      label={paymentStatusLabel(status)}
      testId="payment-status-badge"
    />
  );
}

/** The plain status of the customer's money (decision 060): Under review, Approved, Paid, Rejected. */
export function MoneyStatusBadge({
  status,
  paymentStatus,
}: {
  status: string;
  paymentStatus: string;
}) {
  const s = moneyStatus(status, paymentStatus);
  return <ColouredBadge colour={s.colour} label={s.label} testId="money-status" />;
}

/** The spec's Payment Status column, which reads "No payout" on a rejected card. */
export function PaymentColumnBadge({
  status,
  paymentStatus,
}: {
  status: string;
  paymentStatus: string;
}) {
  const s = moneyStatus(status, paymentStatus);
  return (
    <ColouredBadge colour={s.paymentColour} label={s.paymentLabel} testId="payment-status-badge" />
  );
}
