import type { z } from 'zod';
import {
  type createFeedbackSchema,
  FEEDBACK_ALREADY_GIVEN,
  FEEDBACK_NOT_COMPLETED,
  type Feedback,
} from '../../../shared/feedback';
import { isUuid } from '../../../shared/ids';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
import type { Db } from '../../db/client';
import { feedback } from '../../db/schema';
import { findTransaction } from './queries';

/**
 * A customer rates a completed card of theirs, once (another customer's card answers as one that
 * does not exist).
 */
export async function rateCard(
  context: CommandContext,
  userId: string,
  id: string,
  input: z.infer<typeof createFeedbackSchema>,
): Promise<Outcome<Feedback>> {
  const card = isUuid(id) ? await findTransaction(context.db, id, userId) : undefined;
  if (!card) throw notFound('Transaction not found');
  if (card.status !== 'completed') throw new HttpError(409, FEEDBACK_NOT_COMPLETED);
  if (card.feedbackRating !== null) throw new HttpError(409, FEEDBACK_ALREADY_GIVEN);
  const saved = await addFeedback(context.db, userId, id, input);
  if (!saved) throw new HttpError(409, FEEDBACK_ALREADY_GIVEN);
  return {
    value: saved,
    changed: [change([userId, STAFF], ['transactions', 'queue', 'admin-stats'])],
  };
}

/**
 * Saves the customer's rating of a card, once: null when the card already has one (the unique
 * index decides, so two requests at the same moment make one row and no error).
 */
async function addFeedback(
  db: Db,
  userId: string,
  transactionId: string,
  input: { rating: number; comment: string | null },
): Promise<Feedback | null> {
  const [row] = await db
    .insert(feedback)
    .values({ userId, transactionId, type: 'transaction', ...input })
    .onConflictDoNothing({ target: feedback.transactionId })
    .returning();
  return row
    ? { rating: row.rating, comment: row.comment, createdAt: row.createdAt.toISOString() }
    : null;
}
