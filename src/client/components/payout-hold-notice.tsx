import { type PayoutHoldReason, payoutHoldText } from '@shared/payouts';
import { ClockIcon } from 'lucide-react';
import { formatDateTime } from '@/lib/dates';
import { cn } from '@/lib/utils';

/**
 * When a seller's payout can be sent, and why it waits (decision 072; issue 43 item 17): shown on
 * the card, the dashboard and the upload form while the hold lasts, nothing once it ended.
 */
export function PayoutHoldNotice({
  until,
  reason,
  className,
}: {
  until: string | null;
  reason: PayoutHoldReason | null;
  className?: string;
}) {
  if (!until || !reason || Date.parse(until) <= Date.now()) return null;
  return (
    <p
      data-testid="payout-hold"
      className={cn(
        'flex items-start gap-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:border-sky-400/30 dark:bg-sky-400/10 dark:text-sky-100',
        className,
      )}
    >
      <ClockIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{payoutHoldText(formatDateTime(until), reason)}</span>
    </p>
  );
}
