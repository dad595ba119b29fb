import type { AdminTransactionDetail } from '@shared/admin';
import { PAYOUT_REFERENCE_MAX_LENGTH } from '@shared/payouts';
import { REJECTION_LABELS, REJECTION_NOTE_MAX_LENGTH, REJECTION_REASONS } from '@shared/rejections';
import {
  PAYMENT_STATUSES,
  paymentStatusLabel,
  statusLabel,
  TRANSACTION_STATUSES,
} from '@shared/statuses';
import { BanknoteIcon, CheckIcon, XIcon } from 'lucide-react';
import { HoldBadge } from '@/components/hold-badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextareaField, TextField } from '@/components/ui/text-field';
import type { ReviewFormState } from './use-review-form';

/** Approve, Reject and Mark paid, under the photos (issue 24, item 6). */
export function QuickActions({ form }: { form: ReviewFormState }) {
  const { approve, reject, markPaid, canApprove, canMarkPaid } = form.actions;
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">Decide</legend>
      <Button type="button" onClick={approve} disabled={!canApprove} data-testid="quick-approve">
        <CheckIcon /> Approve
      </Button>
      <Button type="button" variant="outline" onClick={reject} data-testid="quick-reject">
        <XIcon /> Reject
      </Button>
      <Button
        type="button"
        variant="outline"
        onClick={markPaid}
        disabled={!canMarkPaid}
        data-testid="quick-mark-paid"
      >
        <BanknoteIcon /> Mark paid
      </Button>
    </fieldset>
  );
}

/** The decision: status, a rejection's reason, the payment and staff's note to the customer. */
export function DecisionFields({
  form,
  transaction: t,
}: {
  form: ReviewFormState;
  transaction: AdminTransactionDetail;
}) {
  const { values, set, errors } = form;
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2" disabled={form.save.isPending}>
      <Field id="review-status" label="Status">
        <NativeSelect
          id="review-status"
          value={values.status}
          onChange={(e) => set.status(e.target.value)}
        >
          {TRANSACTION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {form.rejecting && <RejectionFields form={form} />}
      {t.payoutHoldUntil && (
        <p
          className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100"
          data-testid="review-hold"
        >
          <HoldBadge until={t.payoutHoldUntil} />
          New payout details or a new account: this card cannot be marked paid before then.
        </p>
      )}
      {/* A card being rejected with nothing paid has no payment to set (issue 24, item 6). */}
      {!form.moneyHidden && (
        <>
          <Field id="review-payment-status" label="Payment Status">
            <NativeSelect
              id="review-payment-status"
              value={values.paymentStatus}
              onChange={(e) => set.paymentStatus(e.target.value)}
            >
              {PAYMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {paymentStatusLabel(s)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <TextField
            id="review-amount"
            label="Payment Amount"
            error={errors.amount}
            type="number"
            step="0.01"
            min="0"
            inputMode="decimal"
            placeholder="Amount sent"
            value={values.paymentAmount}
            onChange={(e) => set.paymentAmount(e.target.value)}
          />
        </>
      )}
      {form.paying && (
        <TextField
          id="review-reference"
          label="Payout Reference"
          className="sm:col-span-2"
          ref={form.refs.referenceField}
          placeholder="Transfer id, optional (printed on the receipt)"
          maxLength={PAYOUT_REFERENCE_MAX_LENGTH}
          value={values.payoutReference}
          onChange={(e) => set.payoutReference(e.target.value)}
        />
      )}
      <TextareaField
        id="review-notes"
        label="Admin Notes"
        className="sm:col-span-2"
        placeholder="Shown to the customer"
        value={values.adminNotes}
        onChange={(e) => set.adminNotes(e.target.value)}
      />
    </fieldset>
  );
}

/** A rejection's reason, and the words for the customer when the reason is "other". */
function RejectionFields({ form }: { form: ReviewFormState }) {
  const { rejection, set, errors } = form;
  return (
    <>
      <Field id="review-rejection-reason" label="Rejection Reason" error={errors.reason}>
        <NativeSelect
          ref={form.refs.reasonPicker}
          id="review-rejection-reason"
          value={rejection.reason}
          aria-invalid={!!errors.reason}
          aria-describedby={errors.reason ? 'review-rejection-reason-error' : undefined}
          onChange={(e) => set.rejectionReason(e.target.value)}
        >
          <option value="">Choose a reason</option>
          {REJECTION_REASONS.map((r) => (
            <option key={r} value={r}>
              {REJECTION_LABELS[r]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {rejection.reason === 'other' && (
        <TextareaField
          id="review-rejection-note"
          label="Reason for the customer"
          error={errors.note}
          className="sm:col-span-2"
          placeholder="Shown to the customer as the reason"
          maxLength={REJECTION_NOTE_MAX_LENGTH}
          value={rejection.note}
          onChange={(e) => set.rejectionNote(e.target.value)}
        />
      )}
    </>
  );
}
