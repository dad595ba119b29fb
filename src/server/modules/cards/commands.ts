import type { z } from 'zod';
import { type createTransactionSchema, quote } from '../../../shared/card-rules';
import {
  type createFeedbackSchema,
  FEEDBACK_ALREADY_GIVEN,
  FEEDBACK_NOT_COMPLETED,
  type Feedback,
} from '../../../shared/feedback';
import { isUuid } from '../../../shared/ids';
import { LIMIT_REFUSAL_CODE, limitRefusal } from '../../../shared/verification';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { levelLimits, lockAccount, submittedValue } from '../../common/selling-limits';
import { accountNotActive } from '../../common/standing';
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
    // The account's row is locked first: its submissions count and insert one at a time, so two
    // racing for the last of an allowance cannot both pass (decision 072).
    const account = await lockAccount(tx, userId);
    if (!account) throw notFound('Account not found');
    if (account.standing !== 'active') throw accountNotActive(account.standing);
    const now = context.now();
    const refusal = limitRefusal(
      input.cardValue,
      await submittedValue(tx, userId, now),
      account.verificationLevel,
      await levelLimits(tx),
    );
    if (refusal) {
      throw new HttpError(403, refusal.message, undefined, {
        code: LIMIT_REFUSAL_CODE,
        requiredLevel: refusal.requiredLevel,
        limit: refusal.limit,
      });
    }
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
        // The app's clock: the rolling limit windows are read by it.
        createdAt: new Date(now),
        updatedAt: new Date(now),
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
      now: new Date(now),
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
