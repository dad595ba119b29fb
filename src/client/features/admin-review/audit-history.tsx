import type { AuditEntry } from '@shared/admin';
import { rejectionReasonLabel } from '@shared/rejections';
import { HistoryIcon } from 'lucide-react';
import { formatDateTime } from '@/lib/dates';

const FIELD_LABELS: Record<string, string> = {
  status: 'Status',
  paymentStatus: 'Payment status',
  paymentAmount: 'Payment amount',
  adminNotes: 'Admin notes',
  payoutReference: 'Payout reference',
  rejectionReason: 'Rejection reason',
  rejectionNote: 'Rejection note',
};

const shown = (value: unknown, field?: string) =>
  value === null || value === ''
    ? '—'
    : field === 'rejectionReason'
      ? rejectionReasonLabel(String(value))
      : String(value);

/** Staff's changes to the card, field by field, from the audit log (decision 013). */
export function AuditHistory({ entries }: { entries: AuditEntry[] }) {
  return (
    <section aria-label="History" className="grid gap-2">
      <h3 className="flex items-center gap-1.5 text-sm font-semibold">
        <HistoryIcon className="size-4" /> History
      </h3>
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">No staff changes yet.</p>
      ) : (
        <ol className="grid gap-2" data-testid="audit-history">
          {entries.map((entry) => (
            <li key={entry.id} className="rounded-md border px-3 py-2 text-sm">
              <p className="text-xs text-muted-foreground">
                {formatDateTime(entry.createdAt)} · {entry.actorEmail}
                {entry.action === 'payout_sent' && ' · marked sent from Payouts'}
              </p>
              <ul className="mt-1 grid gap-0.5">
                {Object.entries(entry.changes).map(([field, { from, to }]) => (
                  <li key={field}>
                    <span className="font-medium">{FIELD_LABELS[field] ?? field}:</span>{' '}
                    {shown(from, field)} → {shown(to, field)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
