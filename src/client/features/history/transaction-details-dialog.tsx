import { ratePercent } from '@shared/brands';
import { CARD_CONDITION_LABELS, CARD_FORMAT_LABELS } from '@shared/card-rules';
import { formatMoney } from '@shared/money';
import { paymentMethodLabel } from '@shared/payment-methods';
import type { Transaction } from '@shared/transactions';
import { DownloadIcon } from 'lucide-react';
import type * as React from 'react';
import { CardImages } from '@/components/card-images';
import { Detail } from '@/components/detail';
import { RejectionReason } from '@/components/rejection-reason';
import { PaymentStatusBadge, StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/dates';
import { CardFeedback } from './card-feedback';

/** The receipt shows times in the viewer's time zone, as the app does. */
export const receiptUrl = (id: string) =>
  `/api/transactions/${id}/receipt?tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`;

export function TransactionDetailsDialog({
  transaction: t,
  onOpenChange,
}: {
  transaction: Transaction | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={t !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" data-testid="transaction-details">
        {t && (
          <>
            <DialogHeader>
              <DialogTitle>{t.cardType}</DialogTitle>
              <DialogDescription>
                Submitted {formatDateTime(t.createdAt)} · ID {t.id}
              </DialogDescription>
            </DialogHeader>
            <div className="flex flex-wrap gap-2">
              <StatusBadge status={t.status} />
              <PaymentStatusBadge status={t.paymentStatus} />
            </div>
            <RejectionReason transaction={t} />
            <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
              <Detail label="Card Value">{formatMoney(t.cardValue)}</Detail>
              <Detail label="Rate at submission">
                <span data-testid="detail-rate">{ratePercent(t.payoutRate)}%</span>
              </Detail>
              <Detail label="Expected Payout">
                <span data-testid="detail-expected">{formatMoney(t.expectedPayout)}</span>
              </Detail>
              <Detail label="Payment Amount">
                {t.paymentAmount !== null ? formatMoney(t.paymentAmount) : 'Not paid yet'}
              </Detail>
              <Detail label="Condition">
                {CARD_CONDITION_LABELS[t.cardCondition as 'brand_new'] ?? t.cardCondition}
              </Detail>
              <Detail label="Format">
                {CARD_FORMAT_LABELS[t.cardFormat as 'physical'] ?? t.cardFormat}
              </Detail>
              {t.paymentMethodType && (
                <Detail label="Paid To">
                  {paymentMethodLabel(t.paymentMethodType)} · {t.paymentMethodAccountName}
                </Detail>
              )}
            </dl>
            {t.notes && <Note label="Your notes">{t.notes}</Note>}
            {t.adminNotes && <Note label="Notes">{t.adminNotes}</Note>}
            <CardImages urls={t.imageUrls} />
            {t.status === 'completed' && (
              <Button asChild variant="outline" className="justify-self-start">
                <a href={receiptUrl(t.id)} download>
                  <DownloadIcon /> Download receipt
                </a>
              </Button>
            )}
            <CardFeedback transaction={t} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Note({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-md bg-muted/60 px-3 py-2 text-sm">
      <span className="font-medium">{label}: </span>
      <span className="whitespace-pre-wrap">{children}</span>
    </div>
  );
}
