import { checkLabel } from '@shared/checks';
import { FlagIcon } from 'lucide-react';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

/** The queue's flag: a card an automated check flagged, with the reasons on hover. */
export function ValidationFlag({ flags }: { flags: string[] }) {
  if (flags.length === 0) return null;
  const reasons = flags.map(checkLabel);
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        {/* Screen readers read the reasons from the label; the Review dialog lists them for all. */}
        <span
          role="img"
          aria-label={`Flagged: ${reasons.join(', ')}`}
          className="inline-flex shrink-0 rounded-sm align-middle text-red-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring dark:text-red-400"
          data-testid="validation-flag"
        >
          <FlagIcon className="size-4" />
        </span>
      </TooltipTrigger>
      <TooltipContent>
        <ul className="grid gap-0.5">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      </TooltipContent>
    </Tooltip>
  );
}
