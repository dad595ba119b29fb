import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { PRODUCT_NAME } from '../../../shared/brand';
import { type createTransactionSchema, quote } from '../../../shared/card-rules';
import {
  APPEAL_ALREADY_MADE,
  APPEAL_NOT_REJECTED,
  APPEAL_WINDOW_CLOSED,
  APPEAL_WINDOW_DAYS,
  type createAppealSchema,
  OFFER_EXPIRED,
  OFFER_NOT_PENDING,
} from '../../../shared/fair-dealing';
import {
  type createFeedbackSchema,
  FEEDBACK_ALREADY_GIVEN,
  FEEDBACK_NOT_COMPLETED,
  type Feedback,
} from '../../../shared/feedback';
import { isUuid } from '../../../shared/ids';
import { formatMoney } from '../../../shared/money';
import { LIMIT_REFUSAL_CODE, limitRefusal } from '../../../shared/verification';
import type { Account } from '../../common/account';
import { auditCard } from '../../common/audit';
import { cardCodeHashes, storedCardCode } from '../../common/card-code';
import { lockCard } from '../../common/card-lock';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { closeOfferUnsold } from '../../common/offers';
import { levelLimits, lockAccount, submittedValue } from '../../common/selling-limits';
import { alertStaff } from '../../common/staff-alert';
import { accountNotActive } from '../../common/standing';
import { scamCheckRefusals, transactions } from '../../db/schema';
import { runSubmissionChecks } from '../checks/checks';
import { cardImagesHashed, claimCardImages } from '../files/uploads';
import { postCardMoneyOf } from '../ledger';
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
  // The photos' hashes, made after their uploads were answered, before the checks compare them.
  await cardImagesHashed(context.db, input.imageUrls);
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
        ...storedCardCode(context.config.encryption, input.cardCode),
        paymentMethodId: method.id,
        payoutRate: rate,
        expectedPayout,
        // The app's clock: the rolling limit windows are read by it.
        createdAt: new Date(now),
        updatedAt: new Date(now),
        scamCheck: input.scamCheck ?? null,
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
      codeHashes: input.cardCode ? cardCodeHashes(context.config.encryption, input.cardCode) : [],
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
 * The customer answered yes to the scam question (decision 073): nothing is bought, the attempt
 * is kept for staff (the customers list shows it), and the route answers 422.
 */
export async function recordScamCheckRefusal(
  context: CommandContext,
  userId: string,
  input: { cardType: string; cardValue: string },
): Promise<Outcome<void>> {
  await context.db.insert(scamCheckRefusals).values({
    userId,
    cardType: input.cardType.slice(0, 120),
    cardValue: input.cardValue.slice(0, 32),
    createdAt: new Date(context.now()),
  });
  return { value: undefined, changed: [change([STAFF], ['users'])] };
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

const CUSTOMER_TOPICS = ['transactions', 'stats', 'queue', 'admin-stats'] as const;

/**
 * The customer answers a revised offer (decision 073): accepting sets the payment amount to the
 * offer, declining rejects the card (balance differs, "offer declined"). The card is locked, so
 * of two answers sent at once exactly one wins; the other finds no pending offer (409).
 */
export async function answerOffer(
  context: CommandContext,
  customer: Account,
  id: string,
  answer: 'accept' | 'decline',
): Promise<Outcome<void>> {
  if (!isUuid(id)) throw notFound('Transaction not found');
  return context.db.transaction(async (tx) => {
    const card = await lockCard(tx, id, customer.id);
    if (card.offerStatus !== 'pending') {
      throw new HttpError(409, OFFER_NOT_PENDING, undefined, { code: 'offer_not_pending' });
    }
    if (card.offerExpiresAt && card.offerExpiresAt.getTime() <= context.now()) {
      throw new HttpError(409, OFFER_EXPIRED, undefined, { code: 'offer_expired' });
    }
    if (answer === 'decline') {
      await closeOfferUnsold(context, tx, customer, card, 'declined');
    } else {
      await tx
        .update(transactions)
        .set({
          offerStatus: 'accepted',
          offerDecidedAt: new Date(context.now()),
          paymentAmount: card.offerAmount,
          updatedAt: sql`now()`,
        })
        .where(eq(transactions.id, id));
      await auditCard(tx, customer, id, 'offer_accepted', {
        offerStatus: { from: 'pending', to: 'accepted' },
        paymentAmount: { from: card.paymentAmount, to: card.offerAmount },
      });
      await postCardMoneyOf(tx, new Date(context.now()), customer, id, card);
    }
    return { value: undefined, changed: [change([customer.id, STAFF], [...CUSTOMER_TOPICS])] };
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The customer appeals a rejected card of theirs (decision 073): once, within 14 days of the
 * rejection, with a message and up to 4 new photos (their own uploads, claimed for the card).
 */
export async function appealCard(
  context: CommandContext,
  customer: Account,
  id: string,
  input: z.infer<typeof createAppealSchema>,
): Promise<Outcome<void>> {
  if (!isUuid(id)) throw notFound('Transaction not found');
  return context.db.transaction(async (tx) => {
    const card = await lockCard(tx, id, customer.id);
    if (card.appealStatus !== null) {
      throw new HttpError(409, APPEAL_ALREADY_MADE, undefined, { code: 'appeal_exists' });
    }
    if (card.status !== 'rejected') {
      throw new HttpError(409, APPEAL_NOT_REJECTED, undefined, { code: 'not_rejected' });
    }
    const rejectedAt = (card.rejectedAt ?? card.updatedAt).getTime();
    if (context.now() - rejectedAt > APPEAL_WINDOW_DAYS * DAY_MS) {
      throw new HttpError(409, APPEAL_WINDOW_CLOSED, undefined, { code: 'appeal_window_closed' });
    }
    if (
      input.imageUrls.length > 0 &&
      !(await claimCardImages(tx, customer.id, id, input.imageUrls))
    ) {
      throw badRequest(IMAGES_NOT_YOURS, 'imageUrls');
    }
    await tx
      .update(transactions)
      .set({
        appealStatus: 'pending',
        appealMessage: input.message,
        appealImageUrls: input.imageUrls,
        appealCreatedAt: new Date(context.now()),
        updatedAt: sql`now()`,
      })
      .where(eq(transactions.id, id));
    await auditCard(tx, customer, id, 'appeal', {
      appealStatus: { from: null, to: 'pending' },
      appealMessage: { from: null, to: input.message },
      ...(input.imageUrls.length > 0
        ? { appealImageUrls: { from: null, to: input.imageUrls } }
        : {}),
    });
    await alertStaff(tx, context, {
      subject: `${PRODUCT_NAME}: a customer appealed a rejected card`,
      lines: [
        `${customer.email} appealed the rejection of their ${card.cardType} card of ${formatMoney(card.cardValue)} (${id.slice(0, 8)}).`,
        `Their message: ${input.message}`,
        'Decide it in the portal: Uploads, filter Appeals.',
      ],
    });
    return { value: undefined, changed: [change([customer.id, STAFF], [...CUSTOMER_TOPICS])] };
  });
}
