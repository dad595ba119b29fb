import type { z } from 'zod';
import { type createTransactionSchema, quote } from '../../../shared/card-rules';
import { tierFor } from '../../../shared/rates';
import { LIMIT_REFUSAL_CODE } from '../../../shared/verification';
import { lockAccount } from '../../common/accounts';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { accountNotActive } from '../../common/standing';
import { scamCheckRefusals, transactions } from '../../db/schema';
import { runSubmissionChecks } from '../checks';
import { cardImagesHashed, claimCardImages } from '../files';
import { findUsablePaymentMethod } from '../payment-methods';
import { belowMinimum, rateChanged, termsForSubmission } from '../rates';
import { sellingLimitRefusal } from '../verification';
import { cardCodeHashes, storedCardCode } from './card-code';
import { decideAtSubmission } from './instant';

export const IMAGES_NOT_YOURS =
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
  /** A card sent through the partner API (issue 42): its PIN and the partner's own id. */
  partner: { pin?: string | null; reference?: string | null } = {},
): Promise<Outcome<string>> {
  const method = await findUsablePaymentMethod(context.db, userId, input.paymentMethodId);
  if (!method) throw badRequest('Payment method not found', 'paymentMethodId');
  // The photos' hashes, made after their uploads were answered, before the checks compare them.
  await cardImagesHashed(context.db, input.imageUrls);
  const { id, decided } = await context.db.transaction(async (tx) => {
    // The account's row is locked first: its submissions count and insert one at a time, so two
    // racing for the last of an allowance cannot both pass (decision 072).
    const account = await lockAccount(tx, userId);
    if (!account) throw notFound('Account not found');
    if (account.standing !== 'active') throw accountNotActive(account.standing);
    const now = context.now();
    const refusal = await sellingLimitRefusal(
      tx,
      userId,
      account.verificationLevel,
      input.cardValue,
      now,
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
    // The most specific tier for the card's format and value, else the brand rate (decision 130).
    const tier = tierFor(terms, input.cardFormat, input.cardValue);
    const { rate, expectedPayout } = quote(tier?.rate ?? terms.rate, input.cardValue);
    if (input.quotedRate !== undefined && Number(input.quotedRate) !== Number(rate)) {
      throw rateChanged(terms, rate, input.quotedRate);
    }
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
        ...storedCardCode(context.config.encryption, input.cardCode, partner.pin),
        partnerReference: partner.reference || null,
        paymentMethodId: method.id,
        payoutRate: rate,
        expectedPayout,
        rateTier: tier,
        // The app's clock: the rolling limit windows are read by it.
        createdAt: new Date(now),
        updatedAt: new Date(now),
        scamCheck: input.scamCheck ?? null,
      })
      .returning({ id: transactions.id });
    // A partner's e-code may come without photos (issue 42): the code is the card.
    if (
      input.imageUrls.length > 0 &&
      !(await claimCardImages(tx, userId, row!.id, input.imageUrls))
    ) {
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
    // A trusted seller's clean card is approved at once by the owner's rules (decision 131).
    const decision = await decideAtSubmission(context, tx, row!.id, account);
    return { id: row!.id, decided: decision.changed };
  });
  return {
    value: id,
    changed: [
      change([userId, STAFF], ['transactions', 'stats', 'queue', 'admin-stats']),
      ...decided,
    ],
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
