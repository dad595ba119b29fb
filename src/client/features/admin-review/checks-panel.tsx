import type { Check } from '@shared/admin';
import { checkLabel } from '@shared/checks';
import { CircleCheckIcon, FlagIcon, InfoIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * The automated checks of a card (run at submission): each with its verdict and details, and for
 * a duplicate or look-alike photo the other cards, which open in the same dialog.
 */
export function ChecksPanel({
  checks,
  onOpen,
}: {
  checks: Check[];
  onOpen?: (id: string) => void;
}) {
  if (checks.length === 0) {
    return <p className="text-sm text-muted-foreground">No automated checks ran on this card.</p>;
  }
  return (
    <ul className="grid gap-2" data-testid="checks">
      {checks.map((check) => {
        const flagged = check.status === 'flagged';
        const info = check.status === 'info';
        return (
          <li
            key={check.validationType}
            className={cn(
              'flex gap-3 rounded-lg border p-3 text-sm',
              flagged && 'border-red-300 bg-red-50 dark:border-red-400/30 dark:bg-red-400/10',
              info && 'border-sky-300 bg-sky-50 dark:border-sky-400/30 dark:bg-sky-400/10',
            )}
            data-testid="check"
            data-status={check.status}
          >
            {flagged ? (
              <FlagIcon className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400" />
            ) : info ? (
              <InfoIcon className="mt-0.5 size-4 shrink-0 text-sky-700 dark:text-sky-300" />
            ) : (
              <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-green-700 dark:text-green-400" />
            )}
            <div className="grid min-w-0 gap-1">
              <p className="font-medium">
                {checkLabel(check.validationType)}
                <span className="sr-only">
                  : {flagged ? 'flagged' : info ? 'for information' : 'passed'}
                </span>
              </p>
              <p className="text-muted-foreground wrap-anywhere">{check.details}</p>
              {check.relatedTransactionIds.length > 0 && onOpen && (
                <div className="flex flex-wrap gap-2">
                  {check.relatedTransactionIds.map((id) => (
                    <Button
                      key={id}
                      type="button"
                      size="sm"
                      variant="outline"
                      onClick={() => onOpen(id)}
                      data-testid="open-related-card"
                    >
                      Open card {id.slice(0, 8)}
                    </Button>
                  ))}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
