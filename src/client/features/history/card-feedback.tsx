import {
  FEEDBACK_COMMENT_MAX_LENGTH,
  type Feedback,
  RATING_MESSAGE,
  RATINGS,
} from '@shared/feedback';
import type { Transaction } from '@shared/transactions';
import { useMutation } from '@tanstack/react-query';
import { StarIcon } from 'lucide-react';
import * as React from 'react';
import { PanelSection } from '@/components/panel-section';
import { StarRating } from '@/components/star-rating';
import { SubmitButton } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { apiRequest } from '@/lib/api';
import { errorToast } from '@/lib/error-toast';
import { refreshAfterSubmission } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';

/** On a completed card: the customer's rating, or a form to give one (once). */
export function CardFeedback({ transaction: t }: { transaction: Transaction }) {
  if (t.status !== 'completed') return null;
  return (
    <PanelSection
      id="feedback"
      testId="card-feedback"
      title={t.feedback ? 'Your rating' : 'How did this sale go?'}
    >
      {t.feedback ? <GivenFeedback feedback={t.feedback} /> : <FeedbackForm id={t.id} />}
    </PanelSection>
  );
}

function GivenFeedback({ feedback }: { feedback: Feedback }) {
  return (
    <div className="grid gap-1 text-sm">
      <StarRating rating={feedback.rating} />
      {feedback.comment && <p className="whitespace-pre-wrap">{feedback.comment}</p>}
      <p className="text-xs text-muted-foreground">Thank you for telling us.</p>
    </div>
  );
}

const starLabel = (n: number) => `${n} star${n === 1 ? '' : 's'}`;

function FeedbackForm({ id }: { id: string }) {
  const [rating, setRating] = React.useState<number | null>(null);
  const [comment, setComment] = React.useState('');
  const [error, setError] = React.useState<string>();
  const save = useMutation({
    mutationFn: async () =>
      (
        await apiRequest('POST', `/api/transactions/${id}/feedback`, {
          rating,
          comment: comment.trim() || undefined,
        })
      ).json(),
    onSuccess: async () => {
      await refreshAfterSubmission();
      toast({ title: 'Thank you', description: 'Your rating was saved.' });
    },
    onError: errorToast('Failed to save your rating'),
  });
  return (
    <form
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (rating === null) {
          setError(RATING_MESSAGE);
          return;
        }
        save.mutate();
      }}
    >
      <fieldset
        className="grid gap-2"
        aria-describedby={error ? 'feedback-rating-error' : undefined}
        disabled={save.isPending}
      >
        <legend className="mb-2 text-sm text-muted-foreground">
          Rate the sale from 1 to 5 stars. You can rate each card once.
        </legend>
        <div className="flex gap-1" data-testid="rating-stars">
          {RATINGS.map((n) => (
            <label key={n} className="cursor-pointer">
              <input
                type="radio"
                name={`rating-${id}`}
                value={n}
                checked={rating === n}
                onChange={() => {
                  setRating(n);
                  setError(undefined);
                }}
                className="peer sr-only"
                aria-label={starLabel(n)}
              />
              <span
                className={cn(
                  'flex size-9 items-center justify-center rounded-md peer-focus-visible:ring-2 peer-focus-visible:ring-ring',
                  rating !== null && n <= rating ? 'text-amber-500' : 'text-muted-foreground',
                )}
              >
                <StarIcon
                  aria-hidden
                  className={cn('size-6', rating !== null && n <= rating && 'fill-amber-400')}
                />
              </span>
            </label>
          ))}
        </div>
        {error && (
          <p
            id="feedback-rating-error"
            role="alert"
            className="text-sm font-medium text-destructive"
          >
            {error}
          </p>
        )}
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={`feedback-comment-${id}`}>Comment (optional)</Label>
        <Textarea
          id={`feedback-comment-${id}`}
          value={comment}
          maxLength={FEEDBACK_COMMENT_MAX_LENGTH}
          onChange={(e) => setComment(e.target.value)}
          disabled={save.isPending}
        />
      </div>
      <SubmitButton pending={save.isPending} className="justify-self-start">
        Submit rating
      </SubmitButton>
    </form>
  );
}
