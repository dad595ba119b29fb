import { DownloadIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { StaffSection } from '@/features/admin-shared/staff-section';
import { ledgerExportUrl } from './queries';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The accounting export (issue 39): one CSV line per posting between two days, for a
 * spreadsheet or accounting software. The browser downloads it; the server checks the days.
 */
export function LedgerExport() {
  const [from, setFrom] = React.useState(() => isoDay(new Date(Date.now() - 30 * 86_400_000)));
  const [to, setTo] = React.useState(() => isoDay(new Date()));
  const wrong =
    !from || !to ? 'Choose both days' : from > to ? 'The first day comes after the last' : null;
  return (
    <StaffSection
      id="export"
      title="Accounting export"
      description="Every posting between two days (UTC): date, entry, account, debit, credit, memo, card and reference."
      className="grid gap-3"
    >
      <div className="grid gap-3 sm:grid-cols-[auto_auto_auto] sm:items-end sm:justify-start">
        <TextField
          id="export-from"
          label="From"
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <TextField
          id="export-to"
          label="To"
          type="date"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={wrong ?? undefined}
        />
        {wrong ? (
          <Button variant="outline" disabled>
            <DownloadIcon /> Export CSV
          </Button>
        ) : (
          <Button variant="outline" asChild>
            <a href={ledgerExportUrl(from, to)} download data-testid="ledger-export">
              <DownloadIcon /> Export CSV
            </a>
          </Button>
        )}
      </div>
    </StaffSection>
  );
}
