import type * as React from 'react';
import { cn } from '@/lib/utils';

export function Table({
  className,
  scrollLabel,
  ...props
}: React.ComponentProps<'table'> & {
  /**
   * For a table that may scroll sideways on a phone: the scrolling box becomes a named region
   * that takes focus, so it can be scrolled by keyboard (axe's scrollable-region-focusable).
   */
  scrollLabel?: string;
}) {
  return (
    // Relative: a visually hidden label inside stays within the scrolling box.
    <div
      className="relative w-full overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      {...(scrollLabel ? { role: 'region', 'aria-label': scrollLabel, tabIndex: 0 } : {})}
    >
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export function TableHeader(props: React.ComponentProps<'thead'>) {
  return <thead className="[&_tr]:border-b" {...props} />;
}

export function TableBody(props: React.ComponentProps<'tbody'>) {
  return <tbody className="[&_tr:last-child]:border-0" {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return (
    <tr className={cn('border-b transition-colors hover:bg-muted/40', className)} {...props} />
  );
}

export function TableHead({ className, ...props }: React.ComponentProps<'th'>) {
  return (
    <th
      className={cn(
        'h-10 whitespace-nowrap px-3 text-left align-middle text-xs font-semibold uppercase tracking-wide text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return <td className={cn('whitespace-nowrap px-3 py-3 align-middle', className)} {...props} />;
}

/** A column heading: its text, or the text with alignment, or read by screen readers only. */
export type TableColumn = string | { label: string; align?: 'right'; srOnly?: boolean };

/** The header row of a table, one heading per column. */
export function TableColumns({ columns }: { columns: TableColumn[] }) {
  return (
    <TableHeader>
      <TableRow>
        {columns.map((column) => {
          const { label, align, srOnly } = typeof column === 'string' ? { label: column } : column;
          return (
            <TableHead key={label} className={align === 'right' ? 'text-right' : undefined}>
              {srOnly ? <span className="sr-only">{label}</span> : label}
            </TableHead>
          );
        })}
      </TableRow>
    </TableHeader>
  );
}
