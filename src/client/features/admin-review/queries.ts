import type { Clawback } from '@shared/ledger';
import { queryOptions } from '@tanstack/react-query';
import { refreshAfterReview } from '@/features/admin-shared/queries';

/**
 * A card's clawbacks (issue 39), keyed under the card's own key: whatever refreshes the queue and
 * the opened card (a save, a payout) refreshes them too. Like the card, never replaced by a live
 * event under the person reading it.
 */
export const clawbacksQuery = (transactionId: string) =>
  queryOptions<Clawback[]>({
    queryKey: ['/api/admin/transactions', transactionId, 'clawbacks'],
    refetchOnMount: 'always',
  });

/** After money is taken back or written off: the card, its clawbacks, the payouts, the figures. */
export const refreshAfterClawback = () => refreshAfterReview();
