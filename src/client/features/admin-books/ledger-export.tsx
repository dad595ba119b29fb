import { DownloadIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { StaffSection } from '@/features/admin-shared/staff-section';
import { useTextInput } from '@/hooks/use-text-input';
import { ledgerExportUrl } from './queries';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The accounting export (issue 39): one CSV line per posting between two days, for a
 * spreadsheet or accounting software. The browser downloads it; the server checks the days.
 */
export function LedgerExport() {
  const from = useTextInput(() => isoDay(new Date(Date.now() - 30 * 86_400_000)));
  const to = useTextInput(() => isoDay(new Date()));
  const wrong =
    !from.value || !to.value
      ? 'Choose both days'
      : from.value > to.value
        ? 'The first day comes after the last'
        : null;
  return (
    <StaffSection
      id="export"
      title="Accounting export"
      description="Every posting between two days (UTC): date, entry, account, debit, credit, memo, card and reference."
      className="grid gap-3"
    >
      <div className="grid gap-3 sm:grid-cols-[auto_auto_auto] sm:items-end sm:justify-start">
        <TextField id="export-from" label="From" type="date" {...from.input} />
        <TextField id="export-to" label="To" type="date" {...to.input} error={wrong ?? undefined} />
        {wrong ? (
          <Button variant="outline" disabled>
            <DownloadIcon /> Export CSV
          </Button>
        ) : (
          <Button variant="outline" asChild>
            <a href={ledgerExportUrl(from.value, to.value)} download data-testid="ledger-export">
              <DownloadIcon /> Export CSV
            </a>
          </Button>
        )}
      </div>
    </StaffSection>
  );
}
