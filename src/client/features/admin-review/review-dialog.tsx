import {
  type AdminTransactionDetail,
  type AuditEntry,
  PAYMENT_AMOUNT_MESSAGE,
} from '@shared/admin';
import { ratePercent } from '@shared/brands';
import {
  CARD_CONDITION_LABELS,
  CARD_FORMAT_LABELS,
  type CardFormat,
  humanize,
  maskedCardCode,
} from '@shared/card-rules';
import { formatMoney, MONEY_PATTERN, toCents } from '@shared/money';
import { paymentMethodLabel } from '@shared/payment-methods';
import { PAYABLE_STATUSES, PAYOUT_REFERENCE_MAX_LENGTH } from '@shared/payouts';
import {
  REJECTION_LABELS,
  REJECTION_NOTE_MAX_LENGTH,
  REJECTION_REASONS,
  rejectionProblems,
  rejectionReasonLabel,
} from '@shared/rejections';
import {
  isPaid,
  PAYMENT_STATUSES,
  paymentStatusLabel,
  statusLabel,
  TRANSACTION_STATUSES,
} from '@shared/statuses';
import { displayName } from '@shared/user-display';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  BanknoteIcon,
  CheckIcon,
  HistoryIcon,
  Loader2Icon,
  RefreshCwIcon,
  XIcon,
} from 'lucide-react';
import * as React from 'react';
import { CardImages } from '@/components/card-images';
import { Detail } from '@/components/detail';
import { CardTimeline } from '@/components/fair/card-timeline';
import { FormActions } from '@/components/form-actions';
import { HoldBadge } from '@/components/hold-badge';
import { StarRating } from '@/components/star-rating';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextareaField, TextField } from '@/components/ui/text-field';
import { VerifiedBadge } from '@/components/verified-badge';
import { adminTransactionQuery, refreshAfterReview } from '@/features/admin-shared/queries';
import { useShortcuts } from '@/hooks/use-shortcuts';
import { ApiError, apiRequest } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { useStaffCan } from '@/lib/staff-role';
import { toast } from '@/lib/toast';
import { ChecksPanel } from './checks-panel';
import { FairDealingPanel } from './fair-dealing-panel';
import { ClaimNotice, type ClaimState, useReviewClaim } from './review-claim';
import { ShortcutsDialog } from './review-shortcuts';

export function ReviewDialog({
  id,
  onClose,
  onOpen,
}: {
  id: string | null;
  onClose: () => void;
  /** Opens another card in this dialog (a duplicate photo's other card). */
  onOpen?: (id: string) => void;
}) {
  return (
    <DialogFrame
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      className="max-w-3xl"
      data-testid="review-dialog"
      title="Review Upload"
      description="Review gift card details and update status"
    >
      {id && <ReviewBody key={id} id={id} onClose={onClose} onOpen={onOpen} />}
    </DialogFrame>
  );
}

function ReviewBody({
  id,
  onClose,
  onOpen,
}: {
  id: string;
  onClose: () => void;
  onOpen?: (id: string) => void;
}) {
  const query = useQuery(adminTransactionQuery(id));
  // Support and finance read a card; only a reviewer (or owner) changes it (decision 076).
  const canReview = useStaffCan()('cards.review');
  if (!canReview) return <ReviewContent id={id} query={query} onClose={onClose} onOpen={onOpen} />;
  return <ClaimedReview id={id} query={query} onClose={onClose} onOpen={onOpen} />;
}

type DetailQuery = ReturnType<typeof useQuery<AdminTransactionDetail>>;

/** A reviewer's view: the card is claimed while the dialog is open (decision 078). */
function ClaimedReview(props: {
  id: string;
  query: DetailQuery;
  onClose: () => void;
  onOpen?: (id: string) => void;
}) {
  const claim = useReviewClaim(props.id);
  return <ReviewContent {...props} claim={claim.state} onTakeOver={claim.takeOver} canReview />;
}

function ReviewContent({
  id,
  query,
  onClose,
  onOpen,
  claim = null,
  onTakeOver,
  canReview = false,
}: {
  id: string;
  query: DetailQuery;
  onClose: () => void;
  onOpen?: (id: string) => void;
  claim?: ClaimState;
  onTakeOver?: () => void;
  canReview?: boolean;
}) {
  if (query.isLoading || !query.data) {
    return (
      <div className="flex justify-center py-12">
        <Loader2Icon className="size-6 animate-spin text-muted-foreground" />
      </div>
    );
  }
  // Keyed by updatedAt: a reload after someone else's save starts the form from their values.
  return (
    <div className="grid gap-6">
      <ClaimNotice state={claim} onTakeOver={() => onTakeOver?.()} />
      <section className="grid gap-2" aria-labelledby="checks-heading">
        <h3 id="checks-heading" className="text-sm font-semibold">
          Automated checks
        </h3>
        <ChecksPanel checks={query.data.checks} onOpen={onOpen} />
      </section>
      {canReview ? (
        <>
          <FairDealingPanel
            key={`appeal-${query.data.updatedAt}`}
            part="appeal"
            transaction={query.data}
          />
          <ReviewForm
            key={query.data.updatedAt}
            transaction={query.data}
            onClose={onClose}
            onReload={() => query.refetch()}
          />
          <FairDealingPanel
            key={`offer-${query.data.updatedAt}`}
            part="offer"
            transaction={query.data}
          />
        </>
      ) : (
        <p className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="review-read-only">
          Status: <strong>{statusLabel(query.data.status)}</strong>. Your role can read this card
          but not change its status.
        </p>
      )}
      <CardTimeline id={id} staff updatedAt={query.data.updatedAt} />
    </div>
  );
}

function ReviewForm({
  transaction: t,
  onClose,
  onReload,
}: {
  transaction: AdminTransactionDetail;
  onClose: () => void;
  onReload: () => void;
}) {
  const [status, setStatus] = React.useState(t.status);
  const [paymentStatus, setPaymentStatus] = React.useState(t.paymentStatus);
  const [paymentAmount, setPaymentAmount] = React.useState(t.paymentAmount ?? '');
  const [adminNotes, setAdminNotes] = React.useState(t.adminNotes ?? '');
  const [payoutReference, setPayoutReference] = React.useState(t.payoutReference ?? '');
  // The reference belongs to a payment made: asked for once payment is sent or confirmed.
  const paying = isPaid(paymentStatus);
  const [rejectionReason, setRejectionReason] = React.useState(t.rejectionReason ?? '');
  const [rejectionNote, setRejectionNote] = React.useState(t.rejectionNote ?? '');
  const [submitted, setSubmitted] = React.useState(false);
  const [stale, setStale] = React.useState(false);
  // The quote is a promise (decision 073): not below it, or below the accepted offer.
  const floor = t.offer?.status === 'accepted' ? t.offer.amount : t.expectedPayout;
  const amountError =
    paymentAmount.trim() !== '' && !MONEY_PATTERN.test(paymentAmount.trim())
      ? PAYMENT_AMOUNT_MESSAGE
      : paymentAmount.trim() !== '' && toCents(paymentAmount.trim()) < toCents(floor)
        ? `At least ${formatMoney(floor)}: to pay less, make a revised offer for the customer to accept`
        : undefined;
  const rejecting = status === 'rejected';
  const moneyHidden = rejecting && !isPaid(t.paymentStatus);
  // The server's own rule (shared): what the rejection still lacks.
  const problems = rejectionProblems({ status, reason: rejectionReason, note: rejectionNote });
  const reasonError = submitted ? problems.rejectionReason : undefined;
  const noteError = submitted ? problems.rejectionNote : undefined;

  const save = useMutation({
    // `approve` (the A key) sends its own status and amount, without waiting for a render.
    mutationFn: async (approve?: { status: string; paymentAmount: string }) =>
      (
        await apiRequest('PATCH', `/api/admin/transactions/${t.id}`, {
          status,
          paymentStatus,
          adminNotes,
          // Only a rejection has a reason; the server clears it when the card leaves rejected.
          ...(rejecting
            ? {
                rejectionReason,
                rejectionNote: rejectionReason === 'other' ? rejectionNote.trim() : null,
              }
            : {}),
          ...(paying ? { payoutReference: payoutReference.trim() || null } : {}),
          // Blank means no amount is sent (spec section 5).
          ...(paymentAmount.trim() !== '' && !moneyHidden
            ? { paymentAmount: paymentAmount.trim() }
            : {}),
          ...approve,
          expectedUpdatedAt: t.updatedAt,
        })
      ).json(),
    onSuccess: async () => {
      await refreshAfterReview();
      toast({ title: 'Success', description: 'Transaction updated successfully' });
      onClose();
    },
    onError: (error) => {
      // Only a stale save asks for a reload; the quote's floor and a waiting offer say why.
      if (
        error instanceof ApiError &&
        error.status === 409 &&
        !['below_quote', 'offer_pending', 'claimed'].includes(error.code ?? '')
      )
        setStale(true);
      errorToast('Failed to update transaction')(error);
    },
  });

  // Keyboard review (issue 21, item 4): A approves in one key, R opens the reason picker.
  const reasonPicker = React.useRef<HTMLSelectElement>(null);
  const [pickReason, setPickReason] = React.useState(false);
  React.useEffect(() => {
    if (pickReason && rejecting) {
      reasonPicker.current?.focus();
      setPickReason(false);
    }
  }, [pickReason, rejecting]);
  const [showKeys, setShowKeys] = React.useState(false);
  // The three primary actions (issue 24, item 6), by button or by key.
  const canApprove = t.status === 'pending' && !save.isPending;
  const approve = () => {
    if (!canApprove) return;
    setStatus('processing');
    const amount = paymentAmount.trim() || floor;
    setPaymentAmount(amount);
    save.mutate({ status: 'processing', paymentAmount: amount });
  };
  const reject = () => {
    setStatus('rejected');
    setPickReason(true);
  };
  const referenceField = React.useRef<HTMLInputElement>(null);
  const canMarkPaid =
    (PAYABLE_STATUSES as readonly string[]).includes(t.status) && !isPaid(t.paymentStatus);
  const markPaid = () => {
    setPaymentStatus('sent');
    if (paymentAmount.trim() === '') setPaymentAmount(floor);
    // The reference field appears with the paid status: focused once it is there.
    setTimeout(() => referenceField.current?.focus(), 0);
  };
  useShortcuts(
    { a: approve, r: reject, '?': () => setShowKeys(true) },
    !save.isPending && !showKeys,
  );

  const submittedBy = t.userEmail
    ? `${displayName({ email: t.userEmail, firstName: t.userFirstName, lastName: t.userLastName })}${
        t.userFirstName && t.userLastName ? ` (${t.userEmail})` : ''
      }`
    : t.userId.slice(0, 8);

  return (
    <form
      className="grid gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        const incomplete = Object.keys(problems).length > 0;
        if ((moneyHidden || !amountError) && !incomplete) save.mutate(undefined);
      }}
    >
      {stale && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900 dark:border-yellow-400/30 dark:bg-yellow-400/10 dark:text-yellow-200"
        >
          <span>
            Someone else changed this transaction after you opened it. Reload to see their changes.
          </span>
          <Button type="button" size="sm" variant="outline" onClick={onReload}>
            <RefreshCwIcon /> Reload
          </Button>
        </div>
      )}
      <CardImages urls={t.imageUrls} removed={t.removedImages} />

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

      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <Detail label="Submitted By" className="col-span-2 sm:col-span-3">
          <span className="mr-2">{submittedBy}</span>
          <VerifiedBadge verified={t.userEmailVerified} />
        </Detail>
        <Detail label="Card Type">{t.cardType}</Detail>
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
            {t.paymentMethodBankName && (
              <Detail label="Bank Name">{t.paymentMethodBankName}</Detail>
            )}
            {t.paymentMethodRoutingNumber && (
              <Detail label="Routing Number">{t.paymentMethodRoutingNumber}</Detail>
            )}
          </dl>
        ) : (
          <p className="mt-1 text-sm text-muted-foreground">No payment method recorded.</p>
        )}
      </section>

      <fieldset className="grid gap-4 sm:grid-cols-2" disabled={save.isPending}>
        <Field id="review-status" label="Status">
          <NativeSelect
            id="review-status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
          >
            {TRANSACTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {rejecting && (
          <Field id="review-rejection-reason" label="Rejection Reason" error={reasonError}>
            <NativeSelect
              ref={reasonPicker}
              id="review-rejection-reason"
              value={rejectionReason}
              aria-invalid={!!reasonError}
              aria-describedby={reasonError ? 'review-rejection-reason-error' : undefined}
              onChange={(e) => setRejectionReason(e.target.value)}
            >
              <option value="">Choose a reason</option>
              {REJECTION_REASONS.map((r) => (
                <option key={r} value={r}>
                  {REJECTION_LABELS[r]}
                </option>
              ))}
            </NativeSelect>
          </Field>
        )}
        {rejecting && rejectionReason === 'other' && (
          <TextareaField
            id="review-rejection-note"
            label="Reason for the customer"
            error={noteError}
            className="sm:col-span-2"
            placeholder="Shown to the customer as the reason"
            maxLength={REJECTION_NOTE_MAX_LENGTH}
            value={rejectionNote}
            onChange={(e) => setRejectionNote(e.target.value)}
          />
        )}
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
        {!moneyHidden && (
          <>
            <Field id="review-payment-status" label="Payment Status">
              <NativeSelect
                id="review-payment-status"
                value={paymentStatus}
                onChange={(e) => setPaymentStatus(e.target.value)}
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
              error={amountError}
              type="number"
              step="0.01"
              min="0"
              inputMode="decimal"
              placeholder="Amount sent"
              value={paymentAmount}
              onChange={(e) => setPaymentAmount(e.target.value)}
            />
          </>
        )}
        {paying && (
          <TextField
            id="review-reference"
            label="Payout Reference"
            className="sm:col-span-2"
            ref={referenceField}
            placeholder="Transfer id, optional (printed on the receipt)"
            maxLength={PAYOUT_REFERENCE_MAX_LENGTH}
            value={payoutReference}
            onChange={(e) => setPayoutReference(e.target.value)}
          />
        )}
        <TextareaField
          id="review-notes"
          label="Admin Notes"
          className="sm:col-span-2"
          placeholder="Shown to the customer"
          value={adminNotes}
          onChange={(e) => setAdminNotes(e.target.value)}
        />
      </fieldset>

      {t.feedback && (
        <section
          aria-label="Customer Feedback"
          className="grid gap-1 rounded-lg border p-4 text-sm"
          data-testid="review-feedback"
        >
          <h3 className="text-sm font-semibold">Customer Feedback</h3>
          <StarRating rating={t.feedback.rating} />
          {t.feedback.comment && <p className="whitespace-pre-wrap">{t.feedback.comment}</p>}
          <p className="text-xs text-muted-foreground">{formatDateTime(t.feedback.createdAt)}</p>
        </section>
      )}

      <AuditHistory entries={t.audit} />

      <FormActions
        label="Save Changes"
        pending={save.isPending}
        onCancel={onClose}
        testId="save-review"
      />
      <p className="text-right text-xs text-muted-foreground" data-testid="review-keys-hint">
        Keys: <kbd className="font-mono">A</kbd> approve · <kbd className="font-mono">R</kbd> reject
        · <kbd className="font-mono">?</kbd> all shortcuts
      </p>
      <ShortcutsDialog open={showKeys} onClose={() => setShowKeys(false)} />
    </form>
  );
}

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

function AuditHistory({ entries }: { entries: AuditEntry[] }) {
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
