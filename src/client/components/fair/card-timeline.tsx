import { TIMELINE_LABELS } from '@shared/fair-dealing-text';
import { useQuery } from '@tanstack/react-query';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/dates';
import { cardTimelineQuery } from '@/lib/queries';

/**
 * A card's status timeline (decision 073), from its audit trail: each step with its time and, in
 * staff's view, who did it. `updatedAt` refetches it when the card changes.
 */
export function CardTimeline({
  id,
  staff = false,
  updatedAt,
}: {
  id: string;
  staff?: boolean;
  updatedAt: string;
}) {
  const { data, isLoading } = useQuery(cardTimelineQuery(id, staff, updatedAt));
  return (
    <section aria-labelledby={`timeline-${id}`} className="grid gap-2" data-testid="card-timeline">
      <h3 id={`timeline-${id}`} className="text-sm font-semibold">
        Timeline
      </h3>
      {isLoading ? (
        <Skeleton className="h-16" />
      ) : (
        <ol className="grid gap-2 border-l pl-4">
          {(data ?? []).map((entry, i) => (
            <li
              key={i}
              className="relative text-sm [overflow-wrap:anywhere]"
              data-testid="timeline-step"
            >
              <span
                aria-hidden
                className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-primary"
              />
              <span className="font-medium">{TIMELINE_LABELS[entry.step] ?? entry.step}</span>
              <span className="text-muted-foreground"> · {formatDateTime(entry.at)}</span>
              {entry.by && <span className="text-muted-foreground"> · {entry.by}</span>}
              {entry.detail && (
                <span className="block whitespace-pre-wrap text-muted-foreground">
                  {entry.detail}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
