import type * as React from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

/** A figure with its label and icon; a skeleton until the figure arrives. */
export function StatCard({
  label,
  value,
  icon,
  testId,
  highlight,
  className,
}: {
  label: string;
  value: React.ReactNode | undefined;
  icon: React.ReactNode;
  testId: string;
  highlight?: boolean;
  className?: string;
}) {
  return (
    <Card className={cn(highlight && 'border-primary/30 bg-primary/5', className)}>
      <CardContent className="flex items-start justify-between gap-2 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">{label}</p>
          {value === undefined ? (
            <Skeleton className="mt-2 h-7 w-16" />
          ) : (
            <p className="mt-1 truncate text-2xl font-bold tabular-nums" data-testid={testId}>
              {value}
            </p>
          )}
        </div>
        <span className="hidden size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex [&_svg]:size-4.5">
          {icon}
        </span>
      </CardContent>
    </Card>
  );
}
