import type { TRANSACTION_STATUSES } from '@shared/statuses';
import { OptionsSelect } from '@/components/options-select';

export type StatusFilterValue = 'all' | (typeof TRANSACTION_STATUSES)[number];

const OPTIONS: [StatusFilterValue, string][] = [
  ['all', 'All statuses'],
  ['pending', 'Pending'],
  ['processing', 'Processing'],
  ['completed', 'Completed'],
  ['rejected', 'Rejected'],
];

/** The status filter of History and the staff queue: all, pending, processing, completed, rejected. */
export function StatusFilter({
  value,
  onChange,
}: {
  value: StatusFilterValue;
  onChange: (value: StatusFilterValue) => void;
}) {
  return (
    <OptionsSelect label="Filter by status" value={value} onChange={onChange} options={OPTIONS} />
  );
}
