import type * as React from 'react';

/**
 * A part of a staff screen (a payout rail, the books) headed by its title and a line on what it
 * does; the section is named by its heading (`${id}-heading`).
 */
export function StaffSection({
  id,
  title,
  description,
  className,
  testId,
  children,
}: {
  id: string;
  title: string;
  description: React.ReactNode;
  className: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={`${id}-heading`} data-testid={testId}>
      <div>
        <h2 id={`${id}-heading`} className="font-semibold">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}
