import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { formatZonedDateTime } from '../../../shared/dates';
import {
  OFFER_EXPIRED,
  OFFER_NOT_PENDING,
  OFFER_PENDING,
  type Offer,
} from '../../../shared/fair-dealing';
import { isUuid } from '../../../shared/ids';
import { expectedPayout, formatMoney, fromCents, toCents } from '../../../shared/money';
import { isPaid } from '../../../shared/statuses';
import type { Account } from '../../common/account';
import { type AuditActor, type AuditChanges, SYSTEM_ACTOR } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { type Notice, notify } from '../../common/notify';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { CARD_TOPICS, type Card, changeCard, lockCard } from './change';
import { checkCeiling } from './over-value';

const NOT_OFFERABLE =
  'A revised offer is for a card waiting for review or in review, and not yet paid';

/**
 * Staff make a revised offer when the balance on the card differs from the value the customer
 * entered (decision 073): the verified value × the card's own payoutRate, so the rate at
 * submission is still honoured. The card stays (or becomes) Processing until the customer answers
 * or the offer expires.
 */
export async function makeOffer(
  context: CommandContext,
  actor: Account,
  id: string,
  input: { verifiedValue: string; note: string; overValueReason?: string },
): Promise<Outcome<Offer>> {
  return context.db.transaction(async (tx) => {
    const current = await lockCard(tx, id);
    if (current.offerStatus === 'pending') {
      throw new HttpError(409, OFFER_PENDING, undefined, { code: 'offer_pending' });
    }
    if (!['pending', 'processing'].includes(current.status) || isPaid(current.paymentStatus)) {
      throw new HttpError(409, NOT_OFFERABLE, undefined, { code: 'not_offerable' });
    }
    const verifiedValue = fromCents(toCents(input.verifiedValue));
    if (toCents(verifiedValue) === toCents(current.cardValue)) {
      throw badRequest(
        'The verified value is the balance the customer entered: no revised offer is needed',
        'verifiedValue',
      );
    }
    const amount = expectedPayout(verifiedValue, current.payoutRate);
    // Never more than the quote, unless an owner says why (decision 106).
    const overValue = checkCeiling(
      actor,
      { value: amount, ceiling: current.expectedPayout, accepted: false },
      input.overValueReason,
      { field: 'verifiedValue', what: 'offer', most: formatMoney(current.cardValue) },
    );
    const now = new Date(context.now());
    const expiresAt = new Date(
      now.getTime() + context.config.fairDealing.offerExpiryHours * 60 * 60 * 1000,
    );
    const changes: AuditChanges = {
      offer: {
        from: current.offerStatus
          ? { amount: current.offerAmount, status: current.offerStatus }
          : null,
        to: { verifiedValue, amount, note: input.note, expiresAt: expiresAt.toISOString() },
      },
      ...overValue,
    };
    if (current.status !== 'processing') {
      changes.status = { from: current.status, to: 'processing' };
    }
    if (current.paymentAmount !== null) {
      changes.paymentAmount = { from: current.paymentAmount, to: null };
    }
    await changeCard(
      context,
      tx,
      actor,
      current,
      {
        status: 'processing',
        paymentAmount: null,
        offerVerifiedValue: verifiedValue,
        offerAmount: amount,
        offerNote: input.note,
        offerStatus: 'pending',
        offerCreatedAt: now,
        offerExpiresAt: expiresAt,
        offerDecidedAt: null,
        firstDecisionAt: current.firstDecisionAt ?? sql`now()`,
      },
      'offer',
      changes,
    );
    await notify(
      context,
      tx,
      current.userId,
      offerNotice(current, { amount, verifiedValue, note: input.note, expiresAt }),
    );
    return {
      value: {
        verifiedValue,
        amount,
        status: 'pending' as const,
        expiresAt: expiresAt.toISOString(),
        note: input.note,
        createdAt: now.toISOString(),
        decidedAt: null,
      },
      changed: [change([current.userId, STAFF], CARD_TOPICS)],
    };
  });
}

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
      await changeCard(
        context,
        tx,
        customer,
        card,
        {
          offerStatus: 'accepted',
          offerDecidedAt: new Date(context.now()),
          paymentAmount: card.offerAmount,
        },
        'offer_accepted',
        {
          offerStatus: { from: 'pending', to: 'accepted' },
          paymentAmount: { from: card.paymentAmount, to: card.offerAmount },
        },
      );
    }
    return {
      value: undefined,
      changed: [change([customer.id, STAFF], ['transactions', 'stats', 'queue', 'admin-stats'])],
    };
  });
}

/**
 * A revised offer's end without a sale (decision 073): the customer declined it, or it expired.
 * The card is rejected with the reason `balance_differs` and a note that says which; call it
 * inside the transaction that locked the card.
 */
async function closeOfferUnsold(
  context: CommandContext,
  tx: Db,
  actor: AuditActor,
  card: Card,
  outcome: 'declined' | 'expired',
) {
  const now = new Date(context.now());
  const note = outcome === 'declined' ? 'offer declined' : 'offer expired';
  await changeCard(
    context,
    tx,
    actor,
    card,
    {
      offerStatus: outcome,
      offerDecidedAt: now,
      status: 'rejected',
      rejectionReason: 'balance_differs',
      rejectionNote: note,
      rejectedAt: now,
      paymentAmount: null,
    },
    outcome === 'declined' ? 'offer_declined' : 'offer_expired',
    {
      offerStatus: { from: 'pending', to: outcome },
      status: { from: card.status, to: 'rejected' },
      rejectionReason: { from: card.rejectionReason, to: 'balance_differs' },
      rejectionNote: { from: card.rejectionNote, to: note },
    },
  );
  // The customer who declined knows it; an expiry is news.
  if (outcome === 'expired') {
    await notify(context, tx, card.userId, {
      kind: 'transaction',
      title: clip(`${card.cardType} card of ${formatMoney(card.cardValue)}: Offer expired`),
      body: 'The revised offer was not answered in time, so the card was rejected (Balance differs). You can appeal within 14 days.',
      link: `/history?card=${card.id}`,
    });
  }
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/** The customer's notice of a revised offer: what, for what balance, why, and until when. */
function offerNotice(
  card: { id: string; cardType: string; cardValue: string },
  offer: { amount: string; verifiedValue: string; note: string; expiresAt: Date },
): Notice {
  return {
    kind: 'transaction',
    title: clip(`${card.cardType} card of ${formatMoney(card.cardValue)}: Revised offer`),
    body: `Revised offer: ${formatMoney(offer.amount)} for a ${formatMoney(offer.verifiedValue)} balance. ${offer.note.replace(/[.!?]?$/, '.')} Accept or decline by ${formatZonedDateTime(offer.expiresAt)}; unanswered, the card is rejected.`,
    link: `/history?card=${card.id}`,
  };
}

const EXPIRIES_PER_RUN = 100;

/**
 * Revised offers not answered by their time, by the app's clock: each card is rejected with the
 * reason `balance_differs` and the note "offer expired", audited as the app's own act, and its
 * customer told. Several instances share the work (SKIP LOCKED). Answers how many expired.
 */
export async function expireOffers(context: CommandContext): Promise<Outcome<number>> {
  const userIds = new Set<string>();
  let expired = 0;
  for (;;) {
    const batch = await context.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.offerStatus, 'pending'),
            lte(transactions.offerExpiresAt, new Date(context.now())),
          ),
        )
        .orderBy(asc(transactions.offerExpiresAt))
        .limit(EXPIRIES_PER_RUN)
        .for('update', { skipLocked: true });
      for (const card of due) {
        await closeOfferUnsold(context, tx, SYSTEM_ACTOR, card, 'expired');
        userIds.add(card.userId);
      }
      return due.length;
    });
    expired += batch;
    if (batch < EXPIRIES_PER_RUN) break;
  }
  return {
    value: expired,
    changed: expired === 0 ? [] : [change([...userIds, STAFF], CARD_TOPICS)],
  };
}
