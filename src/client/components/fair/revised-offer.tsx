import { brandName } from '@shared/brands';
import { offerHeadline } from '@shared/fair-dealing-text';
import { formatMoney } from '@shared/money';
import type { Transaction } from '@shared/transactions';
import { useMutation } from '@tanstack/react-query';
import { CheckIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { apiRequest } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { refreshAfterSubmission } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';

/**
 * A revised offer waiting for the customer (decision 073): "Revised offer: $X for a $Y balance",
 * staff's note, until when, and Accept / Decline. History, the card's detail and the dashboard
 * show it; after an answer, one line says what became of it.
 */
export function RevisedOffer({
  transaction: t,
  className,
}: {
  transaction: Pick<Transaction, 'id' | 'cardType' | 'offer'>;
  className?: string;
}) {
  const offer = t.offer;
  const [declining, setDeclining] = React.useState(false);
  const answer = useMutation({
    mutationFn: async (choice: 'accept' | 'decline') =>
      (await apiRequest('POST', `/api/transactions/${t.id}/offer/${choice}`)).json(),
    onSuccess: async (_data, choice) => {
      await refreshAfterSubmission();
      toast({
        title: choice === 'accept' ? 'Offer accepted' : 'Offer declined',
        description:
          choice === 'accept'
            ? 'We will pay the revised amount once the card is approved.'
            : 'The card was rejected. You can appeal within 14 days.',
      });
    },
    onError: errorToast('Your answer could not be saved'),
  });
  if (!offer) return null;
  if (offer.status !== 'pending') {
    const what = {
      accepted: `You accepted the revised offer of ${formatMoney(offer.amount)}.`,
      declined: 'You declined the revised offer.',
      expired: 'The revised offer expired without an answer.',
    }[offer.status];
    return (
      <p className={cn('text-sm text-muted-foreground', className)} data-testid="offer-outcome">
        {what}
      </p>
    );
  }
  return (
    <section
      aria-label={`Revised offer for ${brandName(t.cardType)}`}
      data-testid="revised-offer"
      className={cn(
        'grid gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-950 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100',
        className,
      )}
    >
      <p className="font-semibold" data-testid="offer-headline">
        {offerHeadline(offer)}
      </p>
      {offer.note && <p className="whitespace-pre-wrap">{offer.note}</p>}
      <p className="text-xs">
        Answer by {formatDateTime(offer.expiresAt)}. Declined or unanswered, the card is rejected
        and you can appeal.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={() => answer.mutate('accept')}
          disabled={answer.isPending}
          aria-label={`Accept the revised offer of ${formatMoney(offer.amount)}`}
        >
          <CheckIcon /> Accept
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setDeclining(true)}
          disabled={answer.isPending}
          aria-label="Decline the revised offer"
          data-testid="decline-offer"
        >
          <XIcon /> Decline
        </Button>
      </div>
      {/* Declining rejects the card: asked first (issue 43, item 20). */}
      <ConfirmDialog
        open={declining}
        onOpenChange={setDeclining}
        title="Decline the revised offer?"
        description="The card is then rejected and not paid. You can still appeal within 14 days."
        confirmLabel="Decline and reject the card"
        pendingLabel="Declining..."
        pending={answer.isPending}
        onConfirm={() => answer.mutate('decline', { onSettled: () => setDeclining(false) })}
      />
    </section>
  );
}
