import type { AdminTransactionDetail } from '@shared/admin';
import { INSTANT_RULES, instantRuleLabel } from '@shared/instant-decisions';
import { useMutation } from '@tanstack/react-query';
import { CircleCheckIcon, CircleXIcon, ZapIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { refreshAfterReview } from '@/features/admin-shared/queries';
import { apiRequest } from '@/lib/api';
import { errorToast } from '@/lib/error-toast';
import { useStaffCan } from '@/lib/staff-role';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';

const SAMPLE_WORDS: Record<string, string> = {
  pending: 'Sampled for a review after payment: waiting for a person.',
  confirmed: 'Sampled for a review after payment: confirmed.',
  clawback: 'Sampled for a review after payment: marked for a clawback.',
};

/**
 * Why the card was or was not decided at once (issue 41, decision 131): every instant-decision
 * rule, met or missed, as the submission found them. A sampled instant decision is confirmed here,
 * or marked for a clawback (finance then takes the money back under "Money taken back").
 */
export function InstantDecisionPanel({ transaction: t }: { transaction: AdminTransactionDetail }) {
  const decision = t.instantDecision;
  if (!decision) return null;
  const missed = 'refusedBecause' in decision ? decision.refusedBecause : [];
  const instant = 'rules' in decision;
  const off = missed.includes('switched_on');
  return (
    <section
      className={cn(
        'grid gap-2 rounded-lg border p-3 text-sm',
        instant && 'border-primary/40 bg-primary/5',
      )}
      aria-labelledby="instant-heading"
      data-testid="instant-decision"
    >
      <h3 id="instant-heading" className="flex items-center gap-2 font-semibold">
        <ZapIcon className="size-4 shrink-0 text-primary" aria-hidden />
        {instant
          ? 'Approved at once by the instant-decision rules'
          : off
            ? 'Waited for a person: instant decisions were switched off'
            : 'Waited for a person: the instant-decision rules were not all met'}
      </h3>
      {!off && (
        <ul className="grid gap-1" aria-label="Instant-decision rules">
          {INSTANT_RULES.map((rule) => {
            const met = !missed.includes(rule);
            return (
              <li
                key={rule}
                className="flex items-start gap-2"
                data-testid="instant-rule"
                data-met={met}
              >
                {met ? (
                  <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-green-700 dark:text-green-400" />
                ) : (
                  <CircleXIcon className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400" />
                )}
                <span className={met ? 'text-muted-foreground' : 'font-medium'}>
                  {instantRuleLabel(rule, met)}
                  <span className="sr-only">{met ? ': met' : ': missed'}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {t.sampleStatus && <SampleReview transaction={t} />}
    </section>
  );
}

function SampleReview({ transaction: t }: { transaction: AdminTransactionDetail }) {
  const canReview = useStaffCan()('cards.review');
  const review = useMutation({
    mutationFn: (outcome: 'confirmed' | 'clawback') =>
      apiRequest('POST', `/api/admin/transactions/${t.id}/sample-review`, { outcome }),
    onSuccess: async (_res, outcome) => {
      await refreshAfterReview();
      toast({
        title: 'Success',
        description:
          outcome === 'confirmed'
            ? 'Instant decision confirmed'
            : 'Marked for a clawback: finance takes the money back',
      });
    },
    onError: errorToast('Failed to save the review'),
  });
  return (
    <div className="grid gap-2 border-t pt-2" data-testid="sample-review">
      <p className="font-medium">{SAMPLE_WORDS[t.sampleStatus ?? ''] ?? t.sampleStatus}</p>
      {t.sampleStatus === 'pending' && canReview && (
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            size="sm"
            disabled={review.isPending}
            onClick={() => review.mutate('confirmed')}
            data-testid="sample-confirm"
          >
            Confirm the decision
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={review.isPending}
            onClick={() => review.mutate('clawback')}
            data-testid="sample-clawback"
          >
            Mark for a clawback
          </Button>
        </div>
      )}
    </div>
  );
}
