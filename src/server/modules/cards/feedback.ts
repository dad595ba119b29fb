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
import { addFeedback, findTransaction } from './queries';

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
