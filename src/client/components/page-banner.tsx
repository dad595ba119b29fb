import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { cn } from '@/lib/utils';

const TONES = {
  warning: 'bg-amber-50 text-amber-950 dark:bg-amber-950/40 dark:text-amber-100',
  danger: 'bg-red-50 text-red-950 dark:bg-red-950/40 dark:text-red-100',
} as const;

/** A full-width strip under the header about the whole account, with an icon and an action. */
export function PageBanner({
  tone,
  icon: Icon,
  role,
  testId,
  children,
  action,
  textClassName,
}: {
  tone: keyof typeof TONES;
  icon: LucideIcon;
  role: 'alert' | 'status';
  testId: string;
  children: React.ReactNode;
  action?: React.ReactNode;
  textClassName?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-wrap items-center gap-x-3 gap-y-2 border-b px-4 py-2.5 text-sm sm:px-6',
        TONES[tone],
      )}
      role={role}
      data-testid={testId}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      <p className={cn('min-w-0 flex-1', textClassName)}>{children}</p>
      {action}
    </div>
  );
}
