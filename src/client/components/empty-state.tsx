import type * as React from 'react';

/** An icon and a line (or more) where a list has nothing to show. */
export function EmptyState({
  icon,
  children,
  testId,
}: {
  icon: React.ReactNode;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <div
      className="py-12 text-center text-muted-foreground [&>svg]:mx-auto [&>svg]:size-10"
      data-testid={testId}
    >
      {icon}
      <div className="mt-3">{children}</div>
    </div>
  );
}
