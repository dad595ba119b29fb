import type * as React from 'react';
import { cn } from '@/lib/utils';

/** A bordered part of a card's page (an offer, an appeal, a rating), named by its heading. */
export function PanelSection({
  id,
  title,
  testId,
  className,
  children,
}: {
  id: string;
  title: React.ReactNode;
  testId: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className={cn('grid gap-3 rounded-lg border p-4', className)}
      data-testid={testId}
    >
      <h3 id={`${id}-heading`} className="flex items-center gap-1.5 text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}
