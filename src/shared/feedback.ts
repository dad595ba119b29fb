import { z } from 'zod';

export const FEEDBACK_COMMENT_MAX_LENGTH = 1000;
export const RATINGS = [1, 2, 3, 4, 5] as const;
export const RATING_MESSAGE = 'Rating must be a whole number from 1 to 5';

/** POST /api/transactions/{id}/feedback: a rating of a completed card, once. */
export const createFeedbackSchema = z.object({
  rating: z
    .number({ error: RATING_MESSAGE })
    .int(RATING_MESSAGE)
    .min(1, RATING_MESSAGE)
    .max(5, RATING_MESSAGE),
  comment: z
    .string({ error: 'Comment must be text' })
    .trim()
    .max(
      FEEDBACK_COMMENT_MAX_LENGTH,
      `Comment must be at most ${FEEDBACK_COMMENT_MAX_LENGTH.toLocaleString('en-US')} characters`,
    )
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CreateFeedbackInput = z.input<typeof createFeedbackSchema>;

/** A customer's rating of one card, as their transaction and the Review dialog carry it. */
export const feedbackSchema = z.object({
  rating: z.number(),
  comment: z.string().nullable(),
  createdAt: z.string(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

export const FEEDBACK_NOT_COMPLETED = 'You can rate a card once it is completed';
export const FEEDBACK_ALREADY_GIVEN = 'You have already rated this card';
