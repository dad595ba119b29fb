import { StarIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A rating of 1 to 5 as stars, read out as "4 out of 5 stars". */
export function StarRating({ rating, className }: { rating: number; className?: string }) {
  return (
    <span
      role="img"
      aria-label={`${rating} out of 5 stars`}
      data-testid="star-rating"
      data-rating={rating}
      className={cn('inline-flex items-center gap-0.5', className)}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon
          key={n}
          aria-hidden
          className={cn(
            'size-4',
            n <= rating ? 'fill-amber-400 text-amber-500' : 'text-muted-foreground/50',
          )}
        />
      ))}
    </span>
  );
}
