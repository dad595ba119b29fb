import { brandName, ratePercent } from '@shared/brands';
import { CARD_CONDITION_LABELS, CARD_FORMAT_LABELS, maskedCardCode } from '@shared/card-rules';
import { formatMoney } from '@shared/money';
import { paymentMethodLabel } from '@shared/payment-methods';
import { moneyStatus } from '@shared/statuses';
import type { Transaction } from '@shared/transactions';
import { DownloadIcon } from 'lucide-react';
import type * as React from 'react';
import { CardImages } from '@/components/card-images';
import { CardSpeed } from '@/components/card-speed';
import { Detail } from '@/components/detail';
import { CardTimeline } from '@/components/fair/card-timeline';
import { ReviewTimeLine } from '@/components/fair/review-time';
import { RevisedOffer } from '@/components/fair/revised-offer';
import { MoneyStatusLine } from '@/components/money-status';
import { PayoutHoldNotice } from '@/components/payout-hold-notice';
import { PayoutProgress } from '@/components/payout-progress';
import { RejectionReason } from '@/components/rejection-reason';
import { PaymentColumnBadge, StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/dates';
import { CardAppeal } from './appeal-dialog';
import { CardFeedback } from './card-feedback';
import { WithdrawCard } from './withdraw-card';

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
  const money = t ? moneyStatus(t.status, t.paymentStatus) : null;
  return (
    <DialogFrame
      open={t !== null}
      onOpenChange={onOpenChange}
      className="max-w-2xl"
      data-testid="transaction-details"
      title={t ? brandName(t.cardType) : undefined}
      description={t && `Submitted ${formatDateTime(t.createdAt)} · ID ${t.id}`}
    >
      {t && (
        <>
          <div className="grid gap-2 rounded-md border px-3 py-2.5">
            <MoneyStatusLine transaction={t} className="text-base" />
            <div className="flex flex-wrap gap-2">
              <StatusBadge status={t.status} />
              <PaymentColumnBadge status={t.status} paymentStatus={t.paymentStatus} />
            </div>
            <CardSpeed transaction={t} />
          </div>
          <RevisedOffer transaction={t} />
          <PayoutProgress transaction={t} />
          <PayoutHoldNotice until={t.payoutHoldUntil} reason={t.payoutHoldReason} />
          {t.status === 'pending' && <ReviewTimeLine cardType={t.cardType} />}
          <WithdrawCard transaction={t} />
          <RejectionReason transaction={t} />
          <CardAppeal transaction={t} />
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
            <Detail label="Card Value">{formatMoney(t.cardValue)}</Detail>
            <Detail label="Rate at submission">
              <span data-testid="detail-rate">{ratePercent(t.payoutRate)}%</span>
            </Detail>
            {/* A rejected card shows no payout to come, only its reason (decision 060). */}
            {money?.hasPayout ? (
              <Detail label="Expected Payout">
                {/* An accepted revised offer replaced the quote (issue 43, 20). */}
                <span data-testid="detail-expected">
                  {t.offer?.status === 'accepted'
                    ? `${formatMoney(t.offer.amount)} (revised offer)`
                    : formatMoney(t.expectedPayout)}
                </span>
              </Detail>
            ) : null}
            <Detail label="Payment Amount">
              <span data-testid="detail-payment">
                {!money?.hasPayout
                  ? 'No payout'
                  : money.key === 'paid'
                    ? formatMoney(t.paymentAmount ?? t.expectedPayout)
                    : 'Not paid yet'}
              </span>
            </Detail>
            {money?.key === 'paid' && t.paidAt && (
              <Detail label="Date Paid">
                <span data-testid="detail-paid-at">{formatDateTime(t.paidAt)}</span>
              </Detail>
            )}
            {money?.key === 'paid' && t.payoutReference && (
              <Detail label="Payout Reference">
                <span data-testid="detail-reference">{t.payoutReference}</span>
              </Detail>
            )}
            <Detail label="Condition">
              {CARD_CONDITION_LABELS[t.cardCondition as 'brand_new'] ?? t.cardCondition}
            </Detail>
            <Detail label="Format">
              {CARD_FORMAT_LABELS[t.cardFormat as 'physical'] ?? t.cardFormat}
            </Detail>
            {t.cardCodeLast4 !== null && (
              <Detail label="Card code">
                <span data-testid="detail-card-code" className="font-mono">
                  {maskedCardCode(t.cardCodeLast4)}
                </span>
              </Detail>
            )}
            {/* "Paid To" only once paid; a rejected card is paid nowhere. */}
            {t.paymentMethodType && money?.hasPayout && (
              <Detail label={money.key === 'paid' ? 'Paid To' : 'Payout Method'}>
                {paymentMethodLabel(t.paymentMethodType)} · {t.paymentMethodAccountName}
              </Detail>
            )}
          </dl>
          {t.notes && <Note label="Your notes">{t.notes}</Note>}
          {t.adminNotes && <Note label="Notes">{t.adminNotes}</Note>}
          <CardImages urls={t.imageUrls} />
          {money?.hasReceipt && (
            <Button asChild variant="outline" className="justify-self-start">
              <a href={receiptUrl(t.id)} download>
                <DownloadIcon /> Download receipt
              </a>
            </Button>
          )}
          <CardFeedback transaction={t} />
          <CardTimeline id={t.id} updatedAt={t.updatedAt} />
        </>
      )}
    </DialogFrame>
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
