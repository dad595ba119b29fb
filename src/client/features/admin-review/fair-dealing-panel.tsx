import type { AdminTransactionDetail } from '@shared/admin';
import {
  APPEAL_NOTE_MAX_LENGTH,
  APPEAL_NOTE_REQUIRED,
  OFFER_NOTE_MAX_LENGTH,
} from '@shared/fair-dealing';
import { offerHeadline } from '@shared/fair-dealing-text';
import { expectedPayout, formatMoney, MONEY_PATTERN, toCents } from '@shared/money';
import { isPaid } from '@shared/statuses';
import { useMutation } from '@tanstack/react-query';
import { GavelIcon, HandCoinsIcon } from 'lucide-react';
import * as React from 'react';
import { CardImages } from '@/components/card-images';
import { PanelSection } from '@/components/panel-section';
import { Button, SubmitButton } from '@/components/ui/button';
import { TextareaField, TextField } from '@/components/ui/text-field';
import { refreshAfterReview } from '@/features/admin-shared/queries';
import { useTextInput } from '@/hooks/use-text-input';
import { apiRequest } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';

/**
 * Staff's side of fair dealing in the review dialog (decision 073): the card's revised offer (or
 * the form to make one), and its appeal with the decision.
 */
export function FairDealingPanel({
  transaction: t,
  part,
}: {
  transaction: AdminTransactionDetail;
  /** The appeal goes before the review form (it is why the card is open), the offer after. */
  part: 'appeal' | 'offer';
}) {
  return part === 'appeal' ? <AppealSection transaction={t} /> : <OfferSection transaction={t} />;
}

const OFFER_STATUS_TEXT = {
  pending: 'waiting for the customer',
  accepted: 'accepted by the customer',
  declined: 'declined by the customer',
  expired: 'expired without an answer',
} as const;

function OfferSection({ transaction: t }: { transaction: AdminTransactionDetail }) {
  const verifiedValue = useTextInput();
  const note = useTextInput();
  const [submitted, setSubmitted] = React.useState(false);
  const offerable =
    ['pending', 'processing'].includes(t.status) &&
    !isPaid(t.paymentStatus) &&
    t.offer?.status !== 'pending';
  const value = verifiedValue.value.trim();
  const valueOk = MONEY_PATTERN.test(value) && toCents(value) > 0;
  const valueError =
    submitted && !valueOk
      ? 'Verified value must be an amount such as 40.00, more than 0'
      : submitted && valueOk && toCents(value) === toCents(t.cardValue)
        ? 'That is the balance the customer entered: no revised offer is needed'
        : undefined;
  const noteError =
    submitted && !note.value.trim() ? 'Tell the customer what you found' : undefined;
  const make = useMutation({
    mutationFn: async () =>
      (
        await apiRequest('POST', `/api/admin/transactions/${t.id}/offer`, {
          verifiedValue: value,
          note: note.value.trim(),
        })
      ).json(),
    onSuccess: async () => {
      await refreshAfterReview();
      toast({ title: 'Offer sent', description: 'The customer was told and can accept it.' });
    },
    onError: errorToast('The offer could not be made'),
  });
  if (!t.offer && !offerable) return null;
  return (
    <PanelSection
      id="offer"
      testId="offer-section"
      title={
        <>
          <HandCoinsIcon className="size-4" /> Revised offer
        </>
      }
    >
      {t.offer && (
        <p className="text-sm" data-testid="offer-state">
          {offerHeadline(t.offer)} — {OFFER_STATUS_TEXT[t.offer.status]}
          {t.offer.status === 'pending' && ` until ${formatDateTime(t.offer.expiresAt)}`}.
        </p>
      )}
      {offerable && (
        <form
          className="grid gap-3 sm:grid-cols-2"
          aria-label="Make a revised offer"
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(true);
            if (valueOk && toCents(value) !== toCents(t.cardValue) && note.value.trim())
              make.mutate();
          }}
        >
          <p className="text-sm text-muted-foreground sm:col-span-2">
            When the balance differs from the {formatMoney(t.cardValue)} entered, offer the verified
            balance at the card’s own rate. The customer accepts or declines; the payout is never
            lowered without their consent.
          </p>
          <TextField
            id="offer-value"
            label="Verified balance"
            error={valueError}
            hint={
              valueOk
                ? `Offer: ${formatMoney(expectedPayout(value, t.payoutRate))} at ${t.payoutRate}`
                : undefined
            }
            inputMode="decimal"
            placeholder="40.00"
            {...verifiedValue.input}
          />
          <TextareaField
            id="offer-note"
            label="Note for the customer"
            error={noteError}
            rows={2}
            maxLength={OFFER_NOTE_MAX_LENGTH}
            {...note.input}
          />
          <SubmitButton
            variant="outline"
            className="justify-self-start"
            pending={make.isPending}
            pendingLabel="Sending..."
            data-testid="make-offer"
          >
            Make revised offer
          </SubmitButton>
        </form>
      )}
    </PanelSection>
  );
}

function AppealSection({ transaction: t }: { transaction: AdminTransactionDetail }) {
  const [note, setNote] = React.useState('');
  const [error, setError] = React.useState<string>();
  const decide = useMutation({
    mutationFn: async (decision: 'upheld' | 'overturned') =>
      (
        await apiRequest('POST', `/api/admin/transactions/${t.id}/appeal/decision`, {
          decision,
          note: note.trim() || null,
        })
      ).json(),
    onSuccess: async (_data, decision) => {
      await refreshAfterReview();
      toast({
        title: decision === 'upheld' ? 'Rejection upheld' : 'Appeal overturned',
        description:
          decision === 'upheld' ? 'The customer was told why.' : 'The card is back in review.',
      });
    },
    onError: errorToast('The decision could not be saved'),
  });
  const appeal = t.appeal;
  if (!appeal) return null;
  return (
    <PanelSection
      id="appeal"
      testId="appeal-section"
      className="border-amber-300 dark:border-amber-400/30"
      title={
        <>
          <GavelIcon className="size-4" /> Appeal ·{' '}
          {appeal.status === 'pending' ? 'waiting for a decision' : appeal.status}
        </>
      }
    >
      <p className="text-xs text-muted-foreground">{formatDateTime(appeal.createdAt)}</p>
      <p className="whitespace-pre-wrap text-sm">{appeal.message}</p>
      {appeal.imageUrls.length > 0 && <CardImages urls={appeal.imageUrls} />}
      {appeal.status !== 'pending' ? (
        appeal.note && <p className="text-sm">Note: {appeal.note}</p>
      ) : (
        <div className="grid gap-3">
          <TextareaField
            id="appeal-note"
            label="Note for the customer"
            error={error}
            rows={2}
            maxLength={APPEAL_NOTE_MAX_LENGTH}
            placeholder="Required to uphold: why the rejection stands"
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setError(undefined);
            }}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              disabled={decide.isPending}
              onClick={() => {
                if (!note.trim()) setError(APPEAL_NOTE_REQUIRED);
                else decide.mutate('upheld');
              }}
            >
              Uphold rejection
            </Button>
            <Button
              type="button"
              disabled={decide.isPending}
              onClick={() => decide.mutate('overturned')}
              data-testid="overturn-appeal"
            >
              Overturn: back to review
            </Button>
          </div>
        </div>
      )}
    </PanelSection>
  );
}
