import type { z } from 'zod';
import { type createTransactionSchema, quote } from '../../../shared/card-rules';
import {
  type createFeedbackSchema,
  FEEDBACK_ALREADY_GIVEN,
  FEEDBACK_NOT_COMPLETED,
  type Feedback,
} from '../../../shared/feedback';
import { isUuid } from '../../../shared/ids';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { transactions } from '../../db/schema';
import { runSubmissionChecks } from '../checks/checks';
import { claimCardImages } from '../files/uploads';
import { findUsablePaymentMethod } from '../payment-methods/queries';
import { belowMinimum, rateChanged, termsForSubmission } from '../rates/queries';
import { addFeedback, findTransaction } from './queries';

const IMAGES_NOT_YOURS =
  'Each image must be one you uploaded for this card and not used by another card';

/**
 * A customer submits a card: quoted at the brand's current terms (share-locked until commit, so
 * the rate at submission is the one stored and honoured), its images claimed, and the automated
 * checks run, all in one transaction. Answers the new card's id.
 */
export async function submitCard(
  context: CommandContext,
  userId: string,
  input: z.infer<typeof createTransactionSchema>,
): Promise<Outcome<string>> {
  const method = await findUsablePaymentMethod(context.db, userId, input.paymentMethodId);
  if (!method) throw badRequest('Payment method not found', 'paymentMethodId');
  const id = await context.db.transaction(async (tx) => {
    const terms = await termsForSubmission(tx, input.cardType);
    const low = belowMinimum(terms, input.cardValue);
    if (low) throw badRequest(low, 'cardValue');
    if (input.quotedRate !== undefined && Number(input.quotedRate) !== Number(terms.rate)) {
      throw rateChanged(terms, input.quotedRate);
    }
    const { rate, expectedPayout } = quote(terms.rate, input.cardValue);
    const [row] = await tx
      .insert(transactions)
      .values({
        userId,
        cardType: input.cardType,
        cardValue: input.cardValue,
        cardCondition: input.cardCondition,
        cardFormat: input.cardFormat,
        imageUrls: input.imageUrls,
        notes: input.notes || null,
        paymentMethodId: method.id,
        payoutRate: rate,
        expectedPayout,
      })
      .returning({ id: transactions.id });
    if (!(await claimCardImages(tx, userId, row!.id, input.imageUrls))) {
      throw badRequest(IMAGES_NOT_YOURS, 'imageUrls');
    }
    // Duplicate and look-alike photos, velocity, account age, value: in the same transaction.
    await runSubmissionChecks(tx, {
      id: row!.id,
      userId,
      cardType: input.cardType,
      cardValue: input.cardValue,
      terms,
      now: new Date(context.now()),
    });
    return row!.id;
  });
  return {
    value: id,
    changed: [change([userId, STAFF], ['transactions', 'stats', 'queue', 'admin-stats'])],
  };
}

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
