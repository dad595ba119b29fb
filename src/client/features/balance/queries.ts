import type { Balance, Statement } from '@shared/ledger';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api';

/**
 * The seller's account (issue 39): both answers are cached under the `stats` topic, so the live
 * stream refetches them whenever a card's money moves; the slow poll is the fallback, as the
 * dashboard's figures have.
 */
export const balanceQuery = () =>
  queryOptions<Balance>({ queryKey: ['/api/balance'], refetchInterval: 10_000 });

const STATEMENT = '/api/balance/statement';

/** One page of the statement, newest first; `cursor` null is the newest page. */
export const statementQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: [STATEMENT, { cursor }],
    queryFn: () =>
      getJson<Statement>(cursor ? `${STATEMENT}?cursor=${encodeURIComponent(cursor)}` : STATEMENT),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

/** The whole statement as CSV, downloaded by the browser. */
export const STATEMENT_CSV_URL = '/api/balance/statement.csv';
