import type { Transaction } from '@shared/transactions';
import { ListOrderedIcon, ZapIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
const ordinal = (n: number) => {
  const suffixes = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${suffixes[(v - 20) % 10] ?? suffixes[v] ?? 'th'}`;
};

/** "about 25 minutes", "about 3 hours", "about 2 days" from now to `at`. */
export function aboutFromNow(at: string, now = Date.now()) {
  const minutes = Math.max(1, Math.round((Date.parse(at) - now) / 60_000));
  if (minutes < 60) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `about ${hours} hour${hours === 1 ? '' : 's'}`;
  return `about ${Math.round(hours / 24)} days`;
}

/**
 * How fast a card is decided (issue 41): "Approved instantly" when the instant-decision rules
 * approved it, or its place in the queue and when to expect a decision while it waits.
 */
export function CardSpeed({
  transaction: t,
  className,
}: {
  transaction: Pick<Transaction, 'decidedBy' | 'queue'>;
  className?: string;
}) {
  if (t.decidedBy === 'auto') {
    return (
      <p
        className={cn('flex items-center gap-1.5 text-sm font-medium text-primary', className)}
        data-testid="approved-instantly"
      >
        <ZapIcon className="size-4" aria-hidden />
        Approved instantly
      </p>
    );
  }
  if (!t.queue) return null;
  return (
    <p
      className={cn('flex items-center gap-1.5 text-sm text-muted-foreground', className)}
      data-testid="queue-place"
    >
      <ListOrderedIcon className="size-4 shrink-0" aria-hidden />
      <span>
        {ordinal(t.queue.position)} in line · a decision in{' '}
        {aboutFromNow(t.queue.expectedDecisionAt)}
      </span>
    </p>
  );
}
