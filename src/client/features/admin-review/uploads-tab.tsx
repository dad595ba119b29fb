import type { QueueSort } from '@shared/admin';
import { useQuery } from '@tanstack/react-query';
import { KeyboardIcon, RefreshCwIcon } from 'lucide-react';
import * as React from 'react';
import { OptionsSelect } from '@/components/options-select';
import { Pager, useCursorPages } from '@/components/pager';
import { SearchInput } from '@/components/search-input';
import { StatusFilter, type StatusFilterValue } from '@/components/status-filter';
import { Button } from '@/components/ui/button';
import { adminTransactionsQuery, reviewSummaryQuery } from '@/features/admin-shared/queries';
import { useShortcuts } from '@/hooks/use-shortcuts';
import { QueueRows } from './queue-rows';
import { ReviewDialog } from './review-dialog';
import { ShortcutsDialog } from './review-shortcuts';

/** The queue's fixed choices: automated checks, instant decisions and the order. */
const CHECKS = [
  ['all', 'All checks'],
  ['flagged', 'Flagged only'],
] as const;
const DECISIONS = [
  ['all', 'All decisions'],
  ['pending', 'Sampled for review'],
] as const;
const ORDERS = [
  ['waiting', 'Oldest waiting first'],
  ['newest', 'Newest first'],
] as const;

function useDebounced<T>(value: T, ms = 300) {
  const [debounced, setDebounced] = React.useState(value);
  React.useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

interface QueueFilter {
  status: StatusFilterValue;
  validation: 'all' | 'flagged';
  appeal: 'all' | 'pending';
  /** 'pending': the sampled instant decisions awaiting a person (decision 131). */
  sampled: 'all' | 'pending';
  sort: QueueSort;
}

// Oldest waiting first (issue 24): the card that has waited longest is reviewed next.
const ALL: QueueFilter = {
  status: 'all',
  validation: 'all',
  appeal: 'all',
  sampled: 'all',
  sort: 'waiting',
};

export function UploadsTab() {
  const [searchInput, setSearchInput] = React.useState('');
  const search = useDebounced(searchInput);
  const [filter, setFilter] = React.useState<QueueFilter>(ALL);
  const { status, validation, appeal, sampled, sort } = filter;
  const pages = useCursorPages(`${search}|${status}|${validation}|${appeal}|${sampled}|${sort}`);
  const query = useQuery(adminTransactionsQuery({ search, ...filter, cursor: pages.cursor }));
  const summary = useQuery(reviewSummaryQuery()).data;
  const [reviewing, setReviewing] = React.useState<string | null>(null);
  const rows = query.data?.items ?? [];
  // Keyboard review (issue 21, item 4): J and K move the selection, Enter opens it, ? lists keys.
  // The highlight follows its card, not its place: a decided card moves below the waiting ones
  // when the list is read again, and the highlight (and the focus on its button) goes with it.
  const [selected, setSelected] = React.useState(0);
  const [selectedId, setSelectedId] = React.useState<string | null>(null);
  const [showKeys, setShowKeys] = React.useState(false);
  const found = selectedId === null ? -1 : rows.findIndex((row) => row.id === selectedId);
  const current = found >= 0 ? found : Math.min(selected, rows.length - 1);
  // Focus follows the highlight (issue 43, item 9): after a dialog closes, the focus is back on
  // the Review button that opened it, and Enter there is that button's own. J and K move the
  // focus with the selection, so Enter always opens the highlighted card.
  const focusSelected = React.useRef(false);
  const move = (by: number) => {
    focusSelected.current = true;
    const next = Math.max(0, Math.min(rows.length - 1, current + by));
    setSelected(next);
    setSelectedId(rows[next]?.id ?? null);
  };
  React.useEffect(() => {
    if (!focusSelected.current || current < 0) return;
    focusSelected.current = false;
    const buttons = document.querySelectorAll<HTMLElement>(`[data-review-index="${current}"]`);
    // The phone list and the table both render; only one is displayed.
    for (const button of buttons) if (button.offsetParent !== null) button.focus();
  }, [current]);
  const open = (id: string, index: number) => {
    setSelected(index);
    setSelectedId(id);
    setReviewing(id);
  };
  useShortcuts(
    {
      j: () => move(1),
      k: () => move(-1),
      enter: () => rows[current] && open(rows[current].id, current),
      '?': () => setShowKeys(true),
    },
    reviewing === null && !showKeys,
  );

  return (
    <div className="grid gap-4">
      <QueueToolbar
        searchInput={searchInput}
        onSearchInput={setSearchInput}
        searching={!!search}
        filter={filter}
        onFilter={(change) => setFilter((f) => ({ ...f, ...change }))}
        appealsPending={summary?.appealsPending}
        fetching={query.isFetching}
        onRefresh={() => query.refetch()}
        onShowKeys={() => setShowKeys(true)}
      />
      <QueueRows
        rows={rows}
        loading={query.isLoading}
        filtered={
          !!search ||
          status !== 'all' ||
          validation !== 'all' ||
          appeal !== 'all' ||
          sampled !== 'all'
        }
        current={current}
        targetMinutes={summary?.targetMinutes}
        onReview={open}
      />
      <Pager pages={pages} count={rows.length} nextCursor={query.data?.nextCursor} />
      <ReviewDialog id={reviewing} onClose={() => setReviewing(null)} onOpen={setReviewing} />
      <ShortcutsDialog open={showKeys} onClose={() => setShowKeys(false)} />
    </div>
  );
}

/** Search, the filters and the order, with Refresh and the list of keys. */
function QueueToolbar({
  searchInput,
  onSearchInput,
  searching,
  filter,
  onFilter,
  appealsPending,
  fetching,
  onRefresh,
  onShowKeys,
}: {
  searchInput: string;
  onSearchInput: (value: string) => void;
  /** A search is on: its results come newest first, whatever the order chosen. */
  searching: boolean;
  filter: QueueFilter;
  onFilter: (change: Partial<QueueFilter>) => void;
  appealsPending: number | undefined;
  fetching: boolean;
  onRefresh: () => void;
  onShowKeys: () => void;
}) {
  // On a phone the filters take two columns and the order the whole row; wider, they sit in one
  // row that wraps. The order is wide enough for its longest choice (issue 43, item 16).
  return (
    <div className="flex flex-col gap-3 xl:flex-row">
      <div className="flex gap-2 xl:flex-1">
        <SearchInput
          label="Search card type, email or ID"
          value={searchInput}
          onChange={onSearchInput}
        />
        <Button
          variant="outline"
          size="icon"
          className="size-10 shrink-0"
          aria-label="Refresh"
          onClick={onRefresh}
        >
          <RefreshCwIcon className={fetching ? 'animate-spin' : undefined} />
        </Button>
        <Button
          variant="outline"
          size="icon"
          className="size-10 shrink-0"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={onShowKeys}
          data-testid="show-shortcuts"
        >
          <KeyboardIcon />
        </Button>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap" data-testid="queue-filters">
        <div className="sm:w-40">
          <StatusFilter value={filter.status} onChange={(status) => onFilter({ status })} />
        </div>
        <div className="sm:w-40">
          <OptionsSelect
            label="Filter by automated checks"
            value={filter.validation}
            onChange={(validation) => onFilter({ validation })}
            options={CHECKS}
          />
        </div>
        <div className="sm:w-40">
          <OptionsSelect
            label="Filter by appeals"
            value={filter.appeal}
            onChange={(appeal) => onFilter({ appeal })}
            options={[
              ['all', 'All cards'],
              ['pending', appealsPending ? `Appeals (${appealsPending})` : 'Appeals'],
            ]}
          />
        </div>
        <div className="sm:w-48">
          <OptionsSelect
            label="Filter by instant decisions"
            value={filter.sampled}
            onChange={(sampled) => onFilter({ sampled })}
            options={DECISIONS}
          />
        </div>
        <div className="col-span-2 sm:w-60">
          <OptionsSelect<QueueSort>
            label="Order"
            value={searching ? 'newest' : filter.sort}
            disabled={searching}
            title={searching ? 'Search results are listed newest first' : undefined}
            onChange={(sort) => onFilter({ sort })}
            options={ORDERS}
          />
        </div>
      </div>
    </div>
  );
}
