import type { Books, TrialBalance } from '@shared/ledger';
import { queryOptions } from '@tanstack/react-query';
import { STAFF_FALLBACK_POLL_MS } from '@/features/admin-shared/queries';
import { refresh } from '@/lib/queries';

/**
 * The Books tab (issue 39), owners and finance: answered from the ledger each time the tab opens,
 * then polled slowly (no live topic carries the books).
 */
export const trialBalanceQuery = () =>
  queryOptions<TrialBalance>({
    queryKey: ['/api/admin/ledger/trial-balance'],
    refetchOnMount: 'always',
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

export const booksQuery = () =>
  queryOptions<Books>({
    queryKey: ['/api/admin/ledger/books'],
    refetchOnMount: 'always',
    refetchInterval: STAFF_FALLBACK_POLL_MS,
  });

/** After a statement is matched: payments were confirmed, so the books change. */
export const refreshAfterReconciliation = () =>
  refresh(trialBalanceQuery().queryKey, booksQuery().queryKey);

/** The accounting export of the postings between two days, downloaded by the browser. */
export const ledgerExportUrl = (from: string, to: string) =>
  `/api/admin/ledger/export.csv?${new URLSearchParams({ from, to })}`;
