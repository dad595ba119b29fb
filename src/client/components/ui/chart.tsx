import { toCsv } from '@shared/csv';
import { DownloadIcon } from 'lucide-react';
import type * as React from 'react';
import { ResponsiveContainer, Tooltip } from 'recharts';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * Charts in the shadcn pattern: recharts inside a container that names each series' colour as a
 * CSS variable (`--color-<key>`, from the theme's `--chart-N`), so light and dark both read. Each
 * chart comes with its figures as a table (for screen readers and anyone who wants the numbers)
 * and a CSV of the same.
 */
export type ChartConfig = Record<string, { label: string; color: string }>;

export function ChartContainer({
  config,
  className,
  children,
  label,
}: {
  config: ChartConfig;
  className?: string;
  children: React.ReactElement;
  /** What the chart shows, for screen readers (the table below says it in full). */
  label: string;
}) {
  const style = Object.fromEntries(
    Object.entries(config).map(([key, { color }]) => [`--color-${key}`, color]),
  ) as React.CSSProperties;
  return (
    <div
      role="img"
      aria-label={label}
      data-testid="chart"
      style={style}
      className={cn(
        'h-64 w-full text-xs [&_.recharts-cartesian-axis-tick_text]:fill-muted-foreground [&_.recharts-cartesian-grid_line]:stroke-border [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted',
        className,
      )}
    >
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/** The tooltip, in the portal's colours. */
export function ChartTooltip() {
  return (
    <Tooltip
      contentStyle={{
        background: 'var(--popover)',
        border: '1px solid var(--border)',
        borderRadius: 8,
        color: 'var(--popover-foreground)',
      }}
      labelStyle={{ color: 'var(--popover-foreground)' }}
    />
  );
}

type Cell = string | number | null;

/** Saves rows as a CSV file (the same CSV rules as the server's exports), from the figures shown. */
export function downloadCsv(name: string, header: string[], rows: Cell[][]) {
  const url = URL.createObjectURL(new Blob([toCsv([header, ...rows])], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/** A chart's figures as a table, folded away, with its CSV. */
export function ChartData({
  title,
  file,
  header,
  rows,
}: {
  title: string;
  file: string;
  header: string[];
  rows: Cell[][];
}) {
  return (
    <div className="mt-2 flex flex-wrap items-start justify-between gap-2">
      <details className="min-w-0 flex-1 text-sm">
        <summary className="cursor-pointer text-muted-foreground">Show as a table</summary>
        {/* Wider than a phone: it scrolls sideways, and takes the focus so keys can scroll it. */}
        <section
          className="mt-2 overflow-x-auto rounded-md border"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable (WCAG 2.1.1)
          tabIndex={0}
          aria-label={title}
        >
          <table className="w-full text-left text-xs whitespace-nowrap sm:text-sm">
            <caption className="sr-only">{title}</caption>
            <thead className="bg-muted/60">
              <tr>
                {header.map((h) => (
                  <th key={h} scope="col" className="px-2 py-1.5 font-medium sm:px-3">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.join('|')} className="border-t">
                  {row.map((cell, i) => (
                    <td key={header[i]} className="px-2 py-1 tabular-nums sm:px-3">
                      {cell ?? '—'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => downloadCsv(file, header, rows)}
        aria-label={`Download ${title} as CSV`}
      >
        <DownloadIcon /> CSV
      </Button>
    </div>
  );
}
