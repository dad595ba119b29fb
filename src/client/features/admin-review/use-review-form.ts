import { type AdminTransactionDetail, PAYMENT_AMOUNT_MESSAGE } from '@shared/admin';
import { formatMoney, MONEY_PATTERN, toCents } from '@shared/money';
import { PAYABLE_STATUSES } from '@shared/payouts';
import { rejectionProblems } from '@shared/rejections';
import { isPaid } from '@shared/statuses';
import { useMutation } from '@tanstack/react-query';
import * as React from 'react';
import { refreshAfterReview } from '@/features/admin-shared/queries';
import { ApiError, apiRequest } from '@/lib/api';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';

/**
 * The review form's values, the rules they are checked by (the server's own, shared), the save,
 * and its three primary actions (issue 24, item 6): approve, reject and mark paid.
 */
export function useReviewForm(t: AdminTransactionDetail, onClose: () => void) {
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

  // Keyboard review (issue 21, item 4): R opens the reason picker once it is there.
  const reasonPicker = React.useRef<HTMLSelectElement>(null);
  const [pickReason, setPickReason] = React.useState(false);
  React.useEffect(() => {
    if (pickReason && rejecting) {
      reasonPicker.current?.focus();
      setPickReason(false);
    }
  }, [pickReason, rejecting]);
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
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const incomplete = Object.keys(problems).length > 0;
    if ((moneyHidden || !amountError) && !incomplete) save.mutate(undefined);
  };

  return {
    values: { status, paymentStatus, paymentAmount, adminNotes, payoutReference },
    rejection: { reason: rejectionReason, note: rejectionNote },
    set: {
      status: setStatus,
      paymentStatus: setPaymentStatus,
      paymentAmount: setPaymentAmount,
      adminNotes: setAdminNotes,
      payoutReference: setPayoutReference,
      rejectionReason: setRejectionReason,
      rejectionNote: setRejectionNote,
    },
    errors: { amount: amountError, reason: reasonError, note: noteError },
    rejecting,
    moneyHidden,
    paying,
    stale,
    save,
    submit,
    actions: { approve, reject, markPaid, canApprove, canMarkPaid },
    refs: { reasonPicker, referenceField },
  };
}

export type ReviewFormState = ReturnType<typeof useReviewForm>;
