import { BanIcon } from 'lucide-react';
import { Link } from 'wouter';
import { PageBanner } from '@/components/page-banner';
import { useAuth } from '@/lib/auth';

/** A suspended customer reads why they cannot sell or be paid, and how to appeal (decision 072). */
export function SuspendedBanner() {
  const { user } = useAuth();
  if (!user || user.isAdmin || user.standing !== 'suspended') return null;
  return (
    <PageBanner tone="danger" icon={BanIcon} role="alert" testId="suspended-banner">
      <strong>Your account is suspended.</strong> You cannot submit cards, change payment methods or
      be paid while it is. You can still read your history and talk to us: to appeal,{' '}
      <Link href="/support" className="font-semibold underline underline-offset-2">
        contact support
      </Link>
      .
    </PageBanner>
  );
}
