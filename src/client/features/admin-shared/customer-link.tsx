import type * as React from 'react';
import { Link } from 'wouter';
import { useStaffCan } from '@/lib/staff-role';
import { cn } from '@/lib/utils';

/** The portal's page of one customer (issue 43 item 15); `#cards` opens it at their cards. */
export const customerPath = (userId: string, section?: 'cards') =>
  `/admin/users/${userId}${section ? `#${section}` : ''}`;

/**
 * A customer's name or email as a link to their page, for a role that may read customers; plain
 * text for one that may not (the page would refuse it).
 */
export function CustomerLink({
  userId,
  children,
  className,
  section,
  label,
}: {
  userId: string | null | undefined;
  children: React.ReactNode;
  className?: string;
  section?: 'cards';
  /** The accessible name when the visible text alone would not say where it goes. */
  label?: string;
}) {
  const can = useStaffCan();
  if (!userId || !can('users.read')) return <span className={className}>{children}</span>;
  return (
    <Link
      href={customerPath(userId, section)}
      className={cn('underline-offset-4 hover:underline focus-visible:underline', className)}
      aria-label={label}
      data-testid="customer-link"
    >
      {children}
    </Link>
  );
}
