import { ArrowLeftIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';

/** A page's back link, title and description. */
export function PageHeader({
  title,
  description,
  backHref = '/',
  backLabel = 'Back to Dashboard',
  backClassName,
  actions,
}: {
  title: string;
  description?: React.ReactNode;
  backHref?: string | null;
  backLabel?: string;
  backClassName?: string;
  actions?: React.ReactNode;
}) {
  return (
    <div className="mb-6 grid gap-3">
      {backHref && (
        <Link
          href={backHref}
          className={cn(
            'inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground',
            backClassName,
          )}
          data-testid="back-link"
        >
          <ArrowLeftIcon className="size-4" /> {backLabel}
        </Link>
      )}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          {description && <p className="mt-1 text-muted-foreground">{description}</p>}
        </div>
        {actions}
      </div>
    </div>
  );
}
