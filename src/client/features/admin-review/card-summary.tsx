import type { AdminTransactionDetail } from '@shared/admin';
import { formatMoney } from '@shared/money';
import { CardImages } from '@/components/card-images';
import { Detail } from '@/components/detail';
import { HoldBadge } from '@/components/hold-badge';
import { PaymentStatusBadge, StatusBadge } from '@/components/status-badge';
import { formatDateTime } from '@/lib/dates';
import { AuditHistory } from './audit-history';
import { CardDetails } from './review-card-details';

/**
 * The card as support and finance read it (issue 43, item 13): what it is worth, what it pays,
 * where its payment stands, the photos and the history, with nothing to change.
 */
export function CardSummary({ transaction: t }: { transaction: AdminTransactionDetail }) {
  return (
    <div className="grid gap-6" data-testid="review-read-only">
      <section aria-label="Money" className="rounded-lg border p-4" data-testid="card-summary">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <Detail label="Status">
            <StatusBadge status={t.status} />
          </Detail>
          <Detail label="Card Value">{formatMoney(t.cardValue)}</Detail>
          <Detail label="Expected Payout">{formatMoney(t.expectedPayout)}</Detail>
          <Detail label="Payment Status">
            <span className="inline-flex flex-wrap items-center gap-1.5">
              <PaymentStatusBadge status={t.paymentStatus} />
              <HoldBadge until={t.payoutHoldUntil} />
            </span>
          </Detail>
          <Detail label="Payment Amount">
            {t.paymentAmount ? formatMoney(t.paymentAmount) : '—'}
          </Detail>
          <Detail label="Paid">{t.paidAt ? formatDateTime(t.paidAt) : '—'}</Detail>
        </dl>
        <p className="mt-3 text-xs text-muted-foreground">
          Read only: reviewers decide cards, finance pays them.
        </p>
      </section>
      <CardImages urls={t.imageUrls} removed={t.removedImages} />
      <CardDetails transaction={t} />
      <AuditHistory entries={t.audit} />
    </div>
  );
}
