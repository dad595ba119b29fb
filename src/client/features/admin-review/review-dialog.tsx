import type { AdminTransactionDetail } from '@shared/admin';
import { brandName } from '@shared/brands';
import { formatMoney } from '@shared/money';
import { useQuery } from '@tanstack/react-query';
import { Loader2Icon } from 'lucide-react';
import { CardTimeline } from '@/components/fair/card-timeline';
import { DialogFrame } from '@/components/ui/dialog';
import { adminTransactionQuery } from '@/features/admin-shared/queries';
import { useIsMobile } from '@/hooks/use-mobile';
import { useStaffCan } from '@/lib/staff-role';
import { CardSummary } from './card-summary';
import { ChecksPanel } from './checks-panel';
import { ClawbacksPanel } from './clawbacks-panel';
import { FairDealingPanel } from './fair-dealing-panel';
import { InstantDecisionPanel } from './instant-decision-panel';
import { ClaimNotice, type ClaimState, useReviewClaim } from './review-claim';
import { ReviewForm } from './review-form';

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
  const canReview = useStaffCan()('cards.review');
  return (
    <DialogFrame
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      className="max-w-3xl"
      data-testid="review-dialog"
      title={canReview ? 'Review Upload' : 'Card summary'}
      description={
        <div className="grid gap-1 text-sm text-muted-foreground">
          <p>
            {canReview
              ? 'Review gift card details and update status'
              : 'Read only: your role can see this card but not change it.'}
          </p>
          {id && <CardSubject id={id} />}
        </div>
      }
    >
      {id && <ReviewBody key={id} id={id} onClose={onClose} onOpen={onOpen} />}
    </DialogFrame>
  );
}

/**
 * The card the dialog acts on, named in its header (issue 43, item 9): brand, value, customer and
 * the card's number, so a key press never acts on a card the reviewer did not mean.
 */
function CardSubject({ id }: { id: string }) {
  const card = useQuery(adminTransactionQuery(id)).data;
  return (
    <p
      className="font-medium text-foreground [overflow-wrap:anywhere]"
      data-testid="review-subject"
    >
      {card
        ? `${brandName(card.cardType)} ${formatMoney(card.cardValue)} from ${card.userEmail ?? 'a deleted account'} · card ${id.slice(0, 8)}`
        : `Card ${id.slice(0, 8)}`}
    </p>
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
  // On a phone the photos and the decision come first, the checks after them (issue 43, item 16).
  // A read-only summary comes before the checks too (issue 43, item 13).
  const checksFirst = !useIsMobile() && canReview;
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
      <InstantDecisionPanel transaction={query.data} />
      {checksFirst && <Checks checks={query.data.checks} onOpen={onOpen} />}
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
        <CardSummary transaction={query.data} />
      )}
      <ClawbacksPanel transaction={query.data} />
      {!checksFirst && <Checks checks={query.data.checks} onOpen={onOpen} />}
      <CardTimeline id={id} staff updatedAt={query.data.updatedAt} />
    </div>
  );
}

/** The automated checks of the card (decision 054). */
function Checks({
  checks,
  onOpen,
}: {
  checks: AdminTransactionDetail['checks'];
  onOpen?: (id: string) => void;
}) {
  return (
    <section className="grid gap-2" aria-labelledby="checks-heading" data-testid="review-checks">
      <h3 id="checks-heading" className="text-sm font-semibold">
        Automated checks
      </h3>
      <ChecksPanel checks={checks} onOpen={onOpen} />
    </section>
  );
}
