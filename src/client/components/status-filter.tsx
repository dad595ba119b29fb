import type { TRANSACTION_STATUSES } from '@shared/statuses';
import { NativeSelect } from '@/components/ui/native-select';

export type StatusFilterValue = 'all' | (typeof TRANSACTION_STATUSES)[number];

const LABELS: Record<StatusFilterValue, string> = {
  all: 'All statuses',
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  rejected: 'Rejected',
};

/** The status filter of History and the staff queue: all, pending, processing, completed, rejected. */
export function StatusFilter({
  value,
  onChange,
}: {
  value: StatusFilterValue;
  onChange: (value: StatusFilterValue) => void;
}) {
  return (
    <NativeSelect
      aria-label="Filter by status"
      value={value}
      onChange={(e) => onChange(e.target.value as StatusFilterValue)}
    >
      {(Object.keys(LABELS) as StatusFilterValue[]).map((s) => (
        <option key={s} value={s}>
          {LABELS[s]}
        </option>
      ))}
    </NativeSelect>
  );
}
