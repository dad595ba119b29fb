import { type AchBatchListItem, achReturnText, type Disbursement } from '@shared/disbursements';
import { formatMoney } from '@shared/money';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckIcon, DownloadIcon, FileStackIcon, LandmarkIcon } from 'lucide-react';
import * as React from 'react';
import { EmptyState } from '@/components/empty-state';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useFileForm } from '@/features/admin-shared/file-form';
import { FileUploadForm } from '@/features/admin-shared/file-upload-form';
import { StaffSection } from '@/features/admin-shared/staff-section';
import { apiRequest, getJson } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';
import { achBatchesQuery, achFileUrl, payoutRailsQuery, refreshPayouts } from './queries';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The ACH file rail (issue 40, decision 122): finance builds a batch of the queued bank payouts,
 * downloads its NACHA file for the bank, marks it settled when the bank has paid, or uploads the
 * bank's return file, whose entries fail their payouts with the reason in words.
 */
export function AchPanel() {
  const rails = useQuery(payoutRailsQuery());
  const ach = rails.data?.find((r) => r.kind === 'ach_file');
  if (!ach?.configured) return null;
  return (
    <StaffSection
      id="ach"
      title="ACH batches"
      description="Queued bank payouts go out in a NACHA file you upload to the bank. Mark the batch settled once the bank has paid it, or upload the bank's return file."
      className="grid grid-cols-[minmax(0,1fr)] gap-4"
      testId="ach-panel"
    >
      <AchBatches />
      <AchReturnsUpload />
    </StaffSection>
  );
}

function AchBatches() {
  const { data } = useQuery(achBatchesQuery());
  const [building, setBuilding] = React.useState(false);
  const [settling, setSettling] = React.useState<AchBatchListItem | null>(null);
  const build = useMutation({
    mutationFn: async () =>
      (await (await apiRequest('POST', '/api/admin/ach-batches', {})).json()) as {
        id: string;
        entries: number;
        total: string;
      },
    onSuccess: async (batch) => {
      setBuilding(false);
      await refreshPayouts();
      toast({
        title: 'Success',
        description:
          batch.entries > 0
            ? `Batch built: ${plural(batch.entries, 'payout')}, ${formatMoney(batch.total)}. Download its file and upload it to the bank.`
            : 'No payout could go in the batch: each was held or failed (see the payouts list).',
      });
    },
    onError: (error) => {
      setBuilding(false);
      errorToast('Could not build the batch')(error);
    },
  });
  const settle = useMutation({
    mutationFn: async (id: string) =>
      (await (await apiRequest('POST', `/api/admin/ach-batches/${id}/settled`)).json()) as {
        confirmed: number;
      },
    onSuccess: async (result) => {
      setSettling(null);
      await refreshPayouts();
      toast({
        title: 'Success',
        description: `Batch settled: ${plural(result.confirmed, 'payout')} confirmed. Each seller was told.`,
      });
    },
    onError: (error) => {
      setSettling(null);
      errorToast('Could not mark the batch settled')(error);
    },
  });
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-3">
      <div>
        <Button
          onClick={() => setBuilding(true)}
          className="h-auto min-h-9 max-w-full whitespace-normal py-2 text-left"
          data-testid="build-ach-batch"
        >
          <FileStackIcon /> Build a batch from queued bank payouts
        </Button>
      </div>
      {!data ? (
        <Skeleton className="h-24" />
      ) : data.length === 0 ? (
        <EmptyState icon={<LandmarkIcon />} testId="ach-batches-empty">
          No batches yet
        </EmptyState>
      ) : (
        <ul className="divide-y rounded-lg border" data-testid="ach-batches">
          {data.map((batch) => (
            <li
              key={batch.id}
              className="flex flex-col gap-2 px-3 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
              data-testid="ach-batch"
            >
              <div className="min-w-0">
                <span className="block font-medium">
                  {plural(batch.entries, 'payout')} · {formatMoney(batch.total)}
                </span>
                <span className="block text-muted-foreground">
                  Built {formatDateTime(batch.createdAt)} ·{' '}
                  {batch.settledAt ? (
                    <span className="font-medium text-primary">
                      Settled {formatDateTime(batch.settledAt)}
                    </span>
                  ) : (
                    'Waiting for the bank'
                  )}
                </span>
              </div>
              <div className="flex flex-wrap gap-2">
                {batch.entries > 0 && (
                  <Button size="sm" variant="outline" asChild>
                    <a
                      href={achFileUrl(batch.id)}
                      download
                      data-testid="ach-download"
                      aria-label={`Download the NACHA file of the batch built ${formatDateTime(batch.createdAt)}`}
                    >
                      <DownloadIcon /> NACHA file
                    </a>
                  </Button>
                )}
                {!batch.settledAt && batch.entries > 0 && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setSettling(batch)}
                    data-testid="ach-settle"
                    aria-label={`Mark settled: the batch built ${formatDateTime(batch.createdAt)}`}
                  >
                    <CheckIcon /> Mark settled
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={building}
        onOpenChange={setBuilding}
        title="Build an ACH batch?"
        description="Every queued bank payout that is not held goes into one NACHA file, and each becomes Sent: its seller sees it on the way. Upload the file to the bank once it is built."
        confirmLabel="Build batch"
        pendingLabel="Building..."
        pending={build.isPending}
        onConfirm={() => build.mutate()}
      />
      <ConfirmDialog
        open={settling !== null}
        onOpenChange={(open) => !open && setSettling(null)}
        title="Mark this batch settled?"
        description={`Only once the bank has paid it: its ${settling ? plural(settling.entries, 'payout') : ''} (${settling ? formatMoney(settling.total) : ''}) become Confirmed and each seller is told. A payout returned later can still be failed by the bank's return file.`}
        confirmLabel="Mark settled"
        pendingLabel="Saving..."
        pending={settle.isPending}
        onConfirm={() => settling && settle.mutate(settling.id)}
      />
    </div>
  );
}

interface Returned {
  code: string;
  payout: Disbursement | null;
  disbursementId: string;
}

function AchReturnsUpload() {
  const returns = useFileForm({
    send: async (file): Promise<Returned[]> => {
      const form = new FormData();
      form.append('file', file);
      const response = await apiRequest('POST', '/api/admin/ach-returns', form);
      const { returned } = (await response.json()) as {
        returned: { disbursementId: string; code: string }[];
      };
      // Each returned payout, to name its seller and amount.
      return Promise.all(
        returned.map(async (r) => ({
          ...r,
          payout: await getJson<Disbursement>(`/api/admin/disbursements/${r.disbursementId}`).catch(
            () => null,
          ),
        })),
      );
    },
    onSuccess: () => refreshPayouts(),
    missing: 'Choose the return file',
    failed: 'Could not read the return file',
  });
  const returned = returns.upload.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-3">
      <FileUploadForm
        state={returns}
        testId="ach-returns"
        className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,20rem)_auto] sm:items-end sm:justify-start"
        file={{
          id: 'ach-return-file',
          label: 'Return file from the bank',
          accept: '.ach,.txt,text/plain',
        }}
        label="Upload return file"
        pendingLabel="Reading..."
        variant="outline"
      />
      {returned && (
        <div
          className="rounded-lg border p-3 text-sm"
          role="status"
          data-testid="ach-returns-result"
        >
          {returned.length === 0 ? (
            <p>No payout of ours was returned in this file (or each was failed already).</p>
          ) : (
            <>
              <p className="font-medium">
                {plural(returned.length, 'payout')} returned and failed; each seller is asked to fix
                their bank details:
              </p>
              <ul className="mt-2 grid gap-1.5">
                {returned.map((r) => (
                  <li key={r.disbursementId} data-testid="ach-returned">
                    <span className="font-medium">
                      {r.payout
                        ? `${r.payout.customerEmail} · ${formatMoney(r.payout.amount)}`
                        : r.disbursementId}
                    </span>
                    <span className="text-destructive"> · {achReturnText(r.code)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
