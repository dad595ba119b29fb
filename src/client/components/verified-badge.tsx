import { BadgeCheckIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

/** Whether a customer confirmed their email address, for staff. */
export function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? (
    <Badge
      variant="outline"
      className="gap-1 border-green-600/30 bg-green-50 text-green-800 dark:border-green-400/30 dark:bg-green-400/10 dark:text-green-200"
      data-testid="verified-badge"
    >
      <BadgeCheckIcon className="size-3.5" /> Verified
    </Badge>
  ) : (
    <Badge variant="outline" className="text-muted-foreground" data-testid="unverified-badge">
      Unverified
    </Badge>
  );
}
