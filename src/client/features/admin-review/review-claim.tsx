import type { Claimant } from '@shared/admin';
import { UserCheckIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { ApiError, apiRequest } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { errorToast } from '@/lib/error-toast';

/** The dialog renews its claim this often while it stays open (claims last 15 minutes). */
const RENEW_MS = 5 * 60 * 1000;

export type ClaimState = { mine: true } | { mine: false; by: Claimant } | null;

/**
 * Opening a card claims it for review, renewed while the dialog stays open, released when it
 * closes (decision 078). Answers who holds it, and a way to take it over.
 */
export function useReviewClaim(id: string) {
  const [state, setState] = React.useState<ClaimState>(null);
  const claim = React.useCallback(
    async (takeOver = false) => {
      try {
        await apiRequest(
          'POST',
          `/api/admin/transactions/${id}/claim`,
          takeOver ? { takeOver } : undefined,
        );
        setState({ mine: true });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'claimed' && error.body?.by)
          setState({ mine: false, by: error.body.by as Claimant });
        else if (takeOver) errorToast('Could not take over the card')(error);
      }
    },
    [id],
  );
  React.useEffect(() => {
    void claim();
    const renew = setInterval(() => void claim(), RENEW_MS);
    return () => {
      clearInterval(renew);
      // Released on close; a claim left behind (a closed tab) lapses on its own.
      void apiRequest('DELETE', `/api/admin/transactions/${id}/claim`).catch(() => {});
    };
  }, [id, claim]);
  return { state, takeOver: () => claim(true) };
}

/** "In review by {name}" with a Take over button, when someone else holds the card. */
export function ClaimNotice({ state, onTakeOver }: { state: ClaimState; onTakeOver: () => void }) {
  if (!state || state.mine) return null;
  return (
    <div
      role="status"
      data-testid="claim-notice"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100"
    >
      <span className="inline-flex items-center gap-2">
        <UserCheckIcon className="size-4 shrink-0" aria-hidden />
        In review by {state.by.name}. Saving needs you to take it over.
      </span>
      <Button type="button" size="sm" variant="outline" onClick={onTakeOver}>
        Take over
      </Button>
    </div>
  );
}

/** The queue's mark on a card another staff member is reviewing. */
export function ClaimBadge({ claimedBy }: { claimedBy: Claimant | null }) {
  const { user } = useAuth();
  if (!claimedBy || claimedBy.id === user?.id) return null;
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs text-muted-foreground"
      data-testid="claim-badge"
    >
      <UserCheckIcon className="size-3" aria-hidden />
      In review by {claimedBy.name}
    </span>
  );
}
