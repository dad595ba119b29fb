import type { AdminTransactionDetail } from '@shared/admin';
import { statusLabel } from '@shared/statuses';
import { useQuery } from '@tanstack/react-query';
import { Loader2Icon } from 'lucide-react';
import { CardTimeline } from '@/components/fair/card-timeline';
import { DialogFrame } from '@/components/ui/dialog';
import { adminTransactionQuery } from '@/features/admin-shared/queries';
import { useStaffCan } from '@/lib/staff-role';
import { ChecksPanel } from './checks-panel';
import { ClawbacksPanel } from './clawbacks-panel';
import { FairDealingPanel } from './fair-dealing-panel';
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
      <ClawbacksPanel transaction={query.data} />
      <CardTimeline id={id} staff updatedAt={query.data.updatedAt} />
    </div>
  );
}
