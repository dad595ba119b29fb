import { ADMIN_PAGE_SIZE } from '@shared/admin';
import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';

/**
 * Keyset paging: the cursors of the pages seen so far, so Previous goes back exactly and Next
 * follows the server's cursor. A new `resetKey` (another search or filter) starts at page 1.
 */
export function useCursorPages(resetKey = '') {
  const [state, setState] = React.useState<{ key: string; stack: (string | null)[] }>({
    key: resetKey,
    stack: [null],
  });
  const stack = state.key === resetKey ? state.stack : [null];
  const update = (change: (stack: (string | null)[]) => (string | null)[]) =>
    setState((s) => ({ key: resetKey, stack: change(s.key === resetKey ? s.stack : [null]) }));
  return {
    cursor: stack.at(-1) ?? null,
    page: stack.length,
    next: (cursor: string) => update((s) => [...s, cursor]),
    previous: () => update((s) => (s.length > 1 ? s.slice(0, -1) : s)),
  };
}

type CursorPages = ReturnType<typeof useCursorPages>;

/** Previous and Next under a list paged by `useCursorPages`, with the range of rows shown. */
export function Pager({
  pages: { page, next: onNext, previous: onPrevious },
  count,
  nextCursor,
  pageSize = ADMIN_PAGE_SIZE,
}: {
  pages: CursorPages;
  /** The rows on this page. */
  count: number;
  nextCursor: string | null | undefined;
  pageSize?: number;
}) {
  if (page === 1 && !nextCursor) return null;
  const first = (page - 1) * pageSize + 1;
  return (
    <div className="flex items-center justify-between gap-3 pt-2 text-sm text-muted-foreground">
      <span data-testid="pager-range">
        {count > 0 ? `${first}–${first + count - 1}` : 'None'} · page {page}
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={onPrevious} disabled={page === 1}>
          <ChevronLeftIcon /> Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => nextCursor && onNext(nextCursor)}
          disabled={!nextCursor}
        >
          Next <ChevronRightIcon />
        </Button>
      </div>
    </div>
  );
}
