import type * as React from 'react';
import { cn } from '@/lib/utils';

/** One read-only label and value of a `<dl>`; a long value (an email, an address) wraps. */
export function Detail({
  label,
  children,
  className,
}: {
  label: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-medium wrap-anywhere">{children}</dd>
    </div>
  );
}
