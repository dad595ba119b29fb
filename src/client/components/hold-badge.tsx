import { HourglassIcon } from 'lucide-react';
import { formatDateTime } from '@/lib/dates';

/** A payout that must wait (decision 072): a new payee or a new account, until the time shown. */
export function HoldBadge({ until }: { until: string | null | undefined }) {
  if (!until) return null;
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-200"
      title="A new payout method or a new account: payment waits"
      data-testid="hold-badge"
    >
      <HourglassIcon className="size-3" aria-hidden />
      Hold until {formatDateTime(until)}
    </span>
  );
}
