import { CheckIcon, CopyIcon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';

/**
 * A secret shown this once (an API key, a webhook signing secret): a warning, the value to copy
 * and a button that hides it for good once the seller says it is saved.
 */
export function ShownOnce({
  label,
  value,
  warning,
  onDone,
  testId,
}: {
  label: string;
  value: string;
  warning: string;
  onDone: () => void;
  testId: string;
}) {
  const [copied, setCopied] = React.useState(false);
  const id = React.useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid={testId}
      className="grid gap-3 rounded-lg border border-amber-500/50 bg-amber-50 p-4 dark:bg-amber-950/30"
    >
      <div className="flex items-start gap-2">
        <TriangleAlertIcon
          className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-400"
          aria-hidden
        />
        <div className="grid gap-1">
          <h3 id={`${id}-title`} className="font-semibold">
            {label}
          </h3>
          <p className="text-sm">{warning}</p>
        </div>
      </div>
      <code
        className="block select-all break-all rounded-md border bg-background px-3 py-2 font-mono text-sm"
        data-testid={`${testId}-value`}
      >
        {value}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? <CheckIcon /> : <CopyIcon />} {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button type="button" onClick={onDone}>
          I have saved it
        </Button>
      </div>
    </section>
  );
}
