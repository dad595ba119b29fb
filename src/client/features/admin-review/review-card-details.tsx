import type { AdminTransactionDetail } from '@shared/admin';
import { brandName, ratePercent } from '@shared/brands';
import {
  CARD_CONDITION_LABELS,
  CARD_FORMAT_LABELS,
  type CardFormat,
  humanize,
  maskedCardCode,
} from '@shared/card-rules';
import { formatMoney } from '@shared/money';
import { paymentMethodLabel } from '@shared/payment-methods';
import { displayName } from '@shared/user-display';
import { Detail } from '@/components/detail';
import { StarRating } from '@/components/star-rating';
import { VerifiedBadge } from '@/components/verified-badge';
import { CustomerLink } from '@/features/admin-shared/customer-link';
import { formatDateTime } from '@/lib/dates';

/** Who sent the card, what it is, what was quoted, and the customer's notes. */
export function CardDetails({ transaction: t }: { transaction: AdminTransactionDetail }) {
  const submittedBy = t.userEmail
    ? `${displayName({ email: t.userEmail, firstName: t.userFirstName, lastName: t.userLastName })}${
        t.userFirstName && t.userLastName ? ` (${t.userEmail})` : ''
      }`
    : t.userId.slice(0, 8);
  return (
    <>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <Detail label="Submitted By" className="col-span-2 sm:col-span-3">
          <CustomerLink userId={t.userId} className="mr-2">
            {submittedBy}
          </CustomerLink>
          <VerifiedBadge verified={t.userEmailVerified} />
        </Detail>
        <Detail label="Card Type">{brandName(t.cardType)}</Detail>
        <Detail label="Card Value">{formatMoney(t.cardValue)}</Detail>
        <Detail label="Card Condition">
          {CARD_CONDITION_LABELS[t.cardCondition as keyof typeof CARD_CONDITION_LABELS] ??
            humanize(t.cardCondition)}
        </Detail>
        <Detail label="Card Format">
          {CARD_FORMAT_LABELS[t.cardFormat as CardFormat] ?? t.cardFormat}
        </Detail>
        <Detail label="Submitted">{formatDateTime(t.createdAt)}</Detail>
        <Detail label="Quoted Rate">{ratePercent(t.payoutRate)}%</Detail>
        <Detail label="Expected Payout">
          <span data-testid="review-expected">{formatMoney(t.expectedPayout)}</span>
        </Detail>
        {t.cardCodeLast4 !== null && (
          <Detail label="Card code / PIN" className="col-span-2 sm:col-span-3">
            <span data-testid="review-card-code" className="select-all break-all font-mono">
              {t.cardCode ?? maskedCardCode(t.cardCodeLast4)}
            </span>
            <span className="ml-2 text-xs text-muted-foreground">
              {t.cardCode ? 'Each view is recorded in the audit log.' : 'Only reviewers read it.'}
            </span>
          </Detail>
        )}
        <Detail label="Scam question">
          <span data-testid="review-scam-check">
            {t.scamCheck === 'no' ? 'Answered no' : 'Not asked (an older app)'}
          </span>
        </Detail>
      </dl>

      {t.notes && (
        <div className="rounded-md bg-muted/60 px-3 py-2 text-sm">
          <p className="font-medium">User Notes</p>
          <p className="mt-1 whitespace-pre-wrap">{t.notes}</p>
        </div>
      )}
    </>
  );
}

/** Where the payout goes: the method the customer chose for this card. */
export function PaymentMethodDetails({ transaction: t }: { transaction: AdminTransactionDetail }) {
  return (
    <section className="rounded-lg border p-4" aria-label="Payment Method">
      <h3 className="text-sm font-semibold">Payment Method</h3>
      {t.paymentMethodType ? (
        <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <Detail label="Type">{paymentMethodLabel(t.paymentMethodType)}</Detail>
          {t.paymentMethodAccountName && (
            <Detail label="Account Name">{t.paymentMethodAccountName}</Detail>
          )}
          {t.paymentMethodIdentifier && (
            <Detail label="Identifier">
              <span className="break-all">{t.paymentMethodIdentifier}</span>
            </Detail>
          )}
          {t.paymentMethodAccountNumber && (
            <Detail label="Account Number">{t.paymentMethodAccountNumber}</Detail>
          )}
          {t.paymentMethodBankName && <Detail label="Bank Name">{t.paymentMethodBankName}</Detail>}
          {t.paymentMethodRoutingNumber && (
            <Detail label="Routing Number">{t.paymentMethodRoutingNumber}</Detail>
          )}
        </dl>
      ) : (
        <p className="mt-1 text-sm text-muted-foreground">No payment method recorded.</p>
      )}
    </section>
  );
}

/** The customer's rating of a completed card, when they gave one. */
export function CustomerFeedback({ feedback }: { feedback: AdminTransactionDetail['feedback'] }) {
  if (!feedback) return null;
  return (
    <section
      aria-label="Customer Feedback"
      className="grid gap-1 rounded-lg border p-4 text-sm"
      data-testid="review-feedback"
    >
      <h3 className="text-sm font-semibold">Customer Feedback</h3>
      <StarRating rating={feedback.rating} />
      {feedback.comment && <p className="whitespace-pre-wrap">{feedback.comment}</p>}
      <p className="text-xs text-muted-foreground">{formatDateTime(feedback.createdAt)}</p>
    </section>
  );
}
