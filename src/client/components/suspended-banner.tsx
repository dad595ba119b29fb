import { BanIcon } from 'lucide-react';
import { Link } from 'wouter';
import { useAuth } from '@/lib/auth';

/** A suspended customer reads why they cannot sell or be paid, and how to appeal (decision 072). */
export function SuspendedBanner() {
  const { user } = useAuth();
  if (!user || user.isAdmin || user.standing !== 'suspended') return null;
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b bg-red-50 px-4 py-2.5 text-sm text-red-950 dark:bg-red-950/40 dark:text-red-100 sm:px-6"
      role="alert"
      data-testid="suspended-banner"
    >
      <BanIcon className="size-4 shrink-0" aria-hidden />
      <p className="min-w-0 flex-1">
        <strong>Your account is suspended.</strong> You cannot submit cards, change payment methods
        or be paid while it is. You can still read your history and talk to us: to appeal,{' '}
        <Link href="/support" className="font-semibold underline underline-offset-2">
          contact support
        </Link>
        .
      </p>
    </div>
  );
}
