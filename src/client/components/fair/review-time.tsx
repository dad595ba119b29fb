import { paymentTimeText, reviewTimeText } from '@shared/fair-dealing-text';
import { useQuery } from '@tanstack/react-query';
import { ClockIcon, WalletIcon } from 'lucide-react';
import { reviewTimesQuery } from '@/lib/queries';
import { cn } from '@/lib/utils';

/** "Usually reviewed within N minutes" (decision 073), for a brand when it has enough data. */
export function ReviewTimeLine({ cardType, className }: { cardType?: string; className?: string }) {
  const { data } = useQuery(reviewTimesQuery());
  if (!data) return null;
  return (
    <p
      className={cn('flex items-center gap-1.5 text-sm text-muted-foreground', className)}
      data-testid="review-time"
    >
      <ClockIcon className="size-4 shrink-0" aria-hidden />
      {reviewTimeText(data, cardType)}
    </p>
  );
}

/**
 * "Usually paid within 25 minutes over the last 7 days" (issue 41, decision 150): the brand's
 * median time from submission to payment, else the overall one; nothing when no card was paid.
 */
export function PaymentTimeLine({
  cardType,
  className,
}: {
  cardType?: string;
  className?: string;
}) {
  const { data } = useQuery(reviewTimesQuery());
  const text = data ? paymentTimeText(data, cardType) : null;
  if (!text) return null;
  return (
    <p
      className={cn('flex items-center gap-1.5 text-sm text-muted-foreground', className)}
      data-testid="payment-time"
    >
      <WalletIcon className="size-4 shrink-0" aria-hidden />
      {text} over the last 7 days
    </p>
  );
}
