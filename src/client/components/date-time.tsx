import { formatDate, formatTime } from '@/lib/dates';

/** The date above the time, for table cells (MMM dd, yyyy / hh:mm a). */
export function DateTimeStack({ value }: { value: string }) {
  return (
    <>
      <span className="block">{formatDate(value)}</span>
      <span className="block text-xs text-muted-foreground">{formatTime(value)}</span>
    </>
  );
}
