import { reviewTimeText } from '@shared/fair-dealing-text';
import { useQuery } from '@tanstack/react-query';
import { ClockIcon } from 'lucide-react';
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
