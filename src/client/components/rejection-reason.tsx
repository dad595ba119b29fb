import { rejectionText } from '@shared/rejections';
import { cn } from '@/lib/utils';

/** Why a rejected card was rejected, for the customer: the label, or the note for Other. */
export function RejectionReason({
  transaction: t,
  className,
}: {
  transaction: { status: string; rejectionReason: string | null; rejectionNote: string | null };
  className?: string;
}) {
  if (t.status !== 'rejected' || !t.rejectionReason) return null;
  return (
    <p
      data-testid="rejection-reason"
      className={cn(
        'rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-400/25 dark:bg-red-400/10 dark:text-red-200',
        className,
      )}
    >
      <span className="font-medium">Reason: </span>
      <span className="whitespace-pre-wrap">
        {rejectionText(t.rejectionReason, t.rejectionNote)}
      </span>
    </p>
  );
}
