import { and, asc, eq, getTableColumns, isNull, lte, or, sql } from 'drizzle-orm';
import { CLAIM_MINUTES, type Claim, type Claimant, claimedMessage } from '../../../shared/admin';
import {
  APPEAL_NOT_PENDING,
  type AppealDecisionInput,
  BELOW_QUOTE,
  OFFER_PENDING,
  type Offer,
} from '../../../shared/fair-dealing';
import { expectedPayout, formatMoney, fromCents, toCents } from '../../../shared/money';
import { rejectionProblems } from '../../../shared/rejections';
import { can } from '../../../shared/staff-roles';
import { isPaid } from '../../../shared/statuses';
import { displayName } from '../../../shared/user-display';
import type { Account } from '../../common/account';
import { type AuditChanges, auditCard, SYSTEM_ACTOR } from '../../common/audit';
import { openCardCode } from '../../common/card-code';
import { lockCard } from '../../common/card-lock';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { notify, transactionNotice } from '../../common/notify';
import { closeOfferUnsold, offerNotice } from '../../common/offers';
import { holdRulesOf, payoutBlocks } from '../../common/payout-holds';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { postCardMoneyOf } from '../ledger';
import { claimantOf } from './queries';
import { FRAUD_REASONS, suspendOnFraudRejections } from './standing';

const EDITABLE = [
  'status',
  'paymentStatus',
  'paymentAmount',
  'adminNotes',
  'payoutReference',
] as const;
type Editable = (typeof EDITABLE)[number] | 'rejectionReason' | 'rejectionNote';
export type TransactionChanges = Partial<Record<Editable, string | null>>;

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();

/**
 * The card's rejection after an edit (decision 051): a card set to rejected needs a reason, sent
 * or already on it; `other` needs a note, and no other reason keeps one; a card that is not
 * rejected has neither.
 */
export function rejectionAfter(
  current: { status: string; rejectionReason: string | null; rejectionNote: string | null },
  input: TransactionChanges,
): { rejectionReason: string | null; rejectionNote: string | null } {
  const status = input.status ?? current.status;
  const sentReason = blankToNull(input.rejectionReason);
  const sentNote = blankToNull(input.rejectionNote);
  if (status !== 'rejected') {
    if (sentReason) {
      throw badRequest(
        'A rejection reason can only be given with the status Rejected',
        'rejectionReason',
      );
    }
    return { rejectionReason: null, rejectionNote: null };
  }
  const reason = sentReason === undefined ? current.rejectionReason : sentReason;
  if (reason && reason !== 'other' && sentNote) {
    throw badRequest('A rejection note goes with the reason Other only', 'rejectionNote');
  }
  // A note goes with Other; a card rejected for its answer to a revised offer keeps the note
  // saying so ("offer declined", decision 073) while its reason is unchanged.
  const note =
    reason !== 'other'
      ? sentNote === undefined && reason === current.rejectionReason && reason === 'balance_differs'
        ? current.rejectionNote
        : null
      : sentNote === undefined
        ? current.rejectionNote
        : sentNote;
  const problems = rejectionProblems({ status, reason, note });
  if (problems.rejectionReason) {
    // A card rejected before reasons existed may keep its other fields edited without one.
    const touched =
      input.status !== undefined || sentReason !== undefined || sentNote !== undefined;
    if (touched) throw badRequest(problems.rejectionReason, 'rejectionReason');
    return { rejectionReason: null, rejectionNote: null };
  }
  if (problems.rejectionNote) throw badRequest(problems.rejectionNote, 'rejectionNote');
  return { rejectionReason: reason, rejectionNote: note };
}

export const STALE_SAVE =
  'This transaction was changed by someone else after you opened it. Reload it and try again.';

/**
 * Applies a staff edit and its audit row in one database transaction. Refuses with 409 when
 * the row changed since `expectedUpdatedAt`. Fields that do not change are not written.
 */
export async function updateTransactionAsStaff(
  context: CommandContext,
  actor: Account,
  id: string,
  input: TransactionChanges,
  expectedUpdatedAt?: string,
  takeOver = false,
): Promise<Outcome<string[]>> {
  return context.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        ...getTableColumns(transactions),
        updatedAtMs: sql<string>`date_trunc('milliseconds', ${transactions.updatedAt})`,
      })
      .from(transactions)
      .where(eq(transactions.id, id))
      .for('update');
    if (!current) throw notFound('Transaction not found');
    if (
      expectedUpdatedAt &&
      new Date(current.updatedAtMs).getTime() !== new Date(expectedUpdatedAt).getTime()
    ) {
      throw new HttpError(409, STALE_SAVE);
    }
    // Another staff member holds the card (decision 078): theirs unless this save takes it over.
    const tookOver = await checkClaim(context, tx, actor, current, takeOver);

    const changes: AuditChanges = {};
    const set: TransactionChanges = {};
    for (const field of EDITABLE) {
      const next = input[field];
      if (next === undefined) continue;
      const before = current[field] ?? null;
      const normalized =
        next === null || next.trim() === ''
          ? null
          : field === 'paymentAmount'
            ? fromCents(toCents(next))
            : next;
      if (before === normalized) continue;
      set[field] = normalized;
      changes[field] = { from: before, to: normalized };
    }
    const rejection = rejectionAfter(current, input);
    for (const field of ['rejectionReason', 'rejectionNote'] as const) {
      if (current[field] === rejection[field]) continue;
      set[field] = rejection[field];
      changes[field] = { from: current[field], to: rejection[field] };
    }
    // A save ends the claim: the card is free for the next reviewer.
    const released = await releaseClaimIn(tx, id, actor);
    if (Object.keys(changes).length === 0) {
      return { value: [], changed: released || tookOver ? [change([STAFF], ['queue'])] : [] };
    }
    // While the customer has a revised offer to answer, its decision and its money wait for them.
    if (
      current.offerStatus === 'pending' &&
      ('status' in changes || 'paymentStatus' in changes || 'paymentAmount' in changes)
    ) {
      throw new HttpError(409, OFFER_PENDING, undefined, { code: 'offer_pending' });
    }
    // The quote is a promise (decision 073): never below it, unless the customer accepted a
    // revised offer, and then never below that.
    if (set.paymentAmount) {
      const floor =
        current.offerStatus === 'accepted' && current.offerAmount
          ? current.offerAmount
          : current.expectedPayout;
      if (toCents(set.paymentAmount) < toCents(floor)) {
        throw new HttpError(
          409,
          current.offerStatus === 'accepted'
            ? `The payment amount cannot be below the accepted offer of ${formatMoney(floor)}`
            : BELOW_QUOTE,
          { paymentAmount: `At least ${formatMoney(floor)}` },
          { code: 'below_quote' },
        );
      }
    }
    // Paying a card held for a new payee or a new account, or of a suspended customer, waits.
    if (set.paymentStatus && isPaid(set.paymentStatus) && !isPaid(current.paymentStatus)) {
      const block = (await payoutBlocks(tx, [id], holdRulesOf(context))).get(id);
      if (block) throw block;
    }
    // Review times count from submission to the first decision; an appeal counts from rejection.
    const decided =
      'status' in changes && current.firstDecisionAt === null
        ? { firstDecisionAt: sql`now()` }
        : {};
    const rejected = set.status === 'rejected' ? { rejectedAt: sql`now()` } : {};
    // When the money went out (decision 060): stamped as payment leaves pending, kept while it
    // stays sent or confirmed, cleared if staff set it back to pending.
    const paidAt =
      set.paymentStatus === undefined
        ? {}
        : !isPaid(set.paymentStatus ?? '')
          ? { paidAt: null }
          : current.paidAt === null
            ? { paidAt: sql`now()` }
            : {};
    await tx
      .update(transactions)
      // status and paymentStatus are never null here: the schema only admits their values.
      .set({
        ...(set as Partial<typeof transactions.$inferInsert>),
        ...paidAt,
        ...decided,
        ...rejected,
        updatedAt: sql`now()`,
      })
      .where(eq(transactions.id, id));
    await auditCard(tx, actor, id, 'update', changes);
    await postCardMoneyOf(tx, new Date(context.now()), actor, id);
    // The customer hears of a decision (status, payment); a note alone is not news.
    const notice = transactionNotice({ ...current, ...rejection }, changes);
    if (notice) await notify(context, tx, current.userId, notice);
    // The third fraud-like rejection in 30 days suspends the account (decision 072).
    const fraudLike =
      (changes.status?.to === 'rejected' || 'rejectionReason' in changes) &&
      (FRAUD_REASONS as readonly string[]).includes(rejection.rejectionReason ?? '');
    const suspended = fraudLike
      ? await suspendOnFraudRejections(context, tx, actor, current.userId)
      : [];
    return {
      value: Object.keys(changes),
      changed: [
        change(
          [current.userId, STAFF],
          ['transactions', 'stats', 'notifications', 'queue', 'admin-stats'],
        ),
        ...suspended,
      ],
    };
  });
}

/** The name staff see on a card another staff member holds. */
const claimantName = (actor: Account) =>
  displayName({ firstName: actor.firstName, lastName: actor.lastName, email: actor.email });

/** A take-over of another staff member's claim, in the card's history (decision 078). */
const auditTakeOver = (tx: Db, actor: Account, cardId: string, holder: Claimant) =>
  auditCard(tx, actor, cardId, 'take_over', {
    claimedBy: { from: holder.name, to: claimantName(actor) },
  });

/**
 * Inside a save of a locked card: refuses with 409 `claimed` while another staff member's claim
 * lasts, unless `takeOver`, which is audited. Answers whether a claim was taken over.
 */
async function checkClaim(
  context: CommandContext,
  tx: Db,
  actor: Account,
  card: typeof transactions.$inferSelect,
  takeOver: boolean,
): Promise<boolean> {
  const holder = claimantOf(card, context.now());
  if (!holder || holder.id === actor.id) return false;
  if (!takeOver) {
    throw new HttpError(409, claimedMessage(holder), undefined, { code: 'claimed', by: holder });
  }
  await auditTakeOver(tx, actor, card.id, holder);
  return true;
}

/** Ends `actor`'s claim on the card, if they hold it. Answers whether there was one. */
async function releaseClaimIn(tx: Db, id: string, actor: Account) {
  const released = await tx
    .update(transactions)
    .set({ claimedById: null, claimedByName: null, claimedUntil: null })
    .where(and(eq(transactions.id, id), eq(transactions.claimedById, actor.id)))
    .returning({ id: transactions.id });
  return released.length > 0;
}

/**
 * Staff open a card for review (decision 078): it is theirs for CLAIM_MINUTES, renewed by each
 * claim (the dialog claims again while it stays open). The row lock decides between two staff
 * claiming at once: the second reads the first's claim, and takes the row only when it is free,
 * lapsed or already theirs, or with `takeOver` (audited). Otherwise 409 `{ code: 'claimed', by }`.
 */
export async function claimCard(
  context: CommandContext,
  actor: Account,
  id: string,
  takeOver = false,
): Promise<Outcome<Claim>> {
  return context.db.transaction(async (tx) => {
    const now = new Date(context.now());
    const until = new Date(now.getTime() + CLAIM_MINUTES * 60_000);
    const free = or(
      isNull(transactions.claimedById),
      eq(transactions.claimedById, actor.id),
      lte(transactions.claimedUntil, now),
    );
    const [previous] = await tx
      .select({
        claimedById: transactions.claimedById,
        claimedByName: transactions.claimedByName,
        claimedUntil: transactions.claimedUntil,
      })
      .from(transactions)
      .where(eq(transactions.id, id))
      .for('update');
    if (!previous) throw notFound('Transaction not found');
    const [taken] = await tx
      .update(transactions)
      .set({ claimedById: actor.id, claimedByName: claimantName(actor), claimedUntil: until })
      .where(and(eq(transactions.id, id), takeOver ? undefined : free))
      .returning({ id: transactions.id });
    // Not taken: the row (locked above) holds another staff member's claim that has not lapsed.
    const holder = claimantOf(previous, now.getTime());
    if (!taken) {
      throw new HttpError(409, claimedMessage(holder!), undefined, { code: 'claimed', by: holder });
    }
    if (takeOver && holder && holder.id !== actor.id) await auditTakeOver(tx, actor, id, holder);
    const changed = holder?.id === actor.id ? [] : [change([STAFF], ['queue'])];
    return {
      value: {
        claimedBy: { id: actor.id, name: claimantName(actor) },
        claimedUntil: until.toISOString(),
      },
      changed,
    };
  });
}

/** Staff close a card's dialog: their claim ends (someone else's stays). */
export async function releaseClaim(
  context: CommandContext,
  actor: Account,
  id: string,
): Promise<Outcome<{ released: boolean }>> {
  const released = await releaseClaimIn(context.db, id, actor);
  return { value: { released }, changed: released ? [change([STAFF], ['queue'])] : [] };
}

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
  input: { verifiedValue: string; note: string },
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
    const now = new Date(context.now());
    const expiresAt = new Date(
      now.getTime() + context.config.fairDealing.offerExpiryHours * 60 * 60 * 1000,
    );
    await tx
      .update(transactions)
      .set({
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
        updatedAt: sql`now()`,
      })
      .where(eq(transactions.id, id));
    const changes: AuditChanges = {
      offer: {
        from: current.offerStatus
          ? { amount: current.offerAmount, status: current.offerStatus }
          : null,
        to: { verifiedValue, amount, note: input.note, expiresAt: expiresAt.toISOString() },
      },
    };
    if (current.status !== 'processing') {
      changes.status = { from: current.status, to: 'processing' };
    }
    if (current.paymentAmount !== null) {
      changes.paymentAmount = { from: current.paymentAmount, to: null };
    }
    await auditCard(tx, actor, id, 'offer', changes);
    await postCardMoneyOf(tx, now, actor, id);
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
      changed: [
        change(
          [current.userId, STAFF],
          ['transactions', 'stats', 'notifications', 'queue', 'admin-stats'],
        ),
      ],
    };
  });
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
    changed:
      expired === 0
        ? []
        : [
            change(
              [...userIds, STAFF],
              ['transactions', 'stats', 'notifications', 'queue', 'admin-stats'],
            ),
          ],
  };
}

/**
 * Staff decide a customer's appeal, once and for good (decision 073): `upheld` keeps the card
 * rejected and says why; `overturned` returns it to Processing for a fresh review.
 */
export async function decideAppeal(
  context: CommandContext,
  actor: Account,
  id: string,
  input: { decision: AppealDecisionInput['decision']; note: string | null },
): Promise<Outcome<void>> {
  return context.db.transaction(async (tx) => {
    const current = await lockCard(tx, id);
    if (current.appealStatus !== 'pending') {
      throw new HttpError(409, APPEAL_NOT_PENDING, undefined, { code: 'appeal_not_pending' });
    }
    const overturned = input.decision === 'overturned';
    await tx
      .update(transactions)
      .set({
        appealStatus: input.decision,
        appealDecidedAt: new Date(context.now()),
        appealNote: input.note,
        ...(overturned ? { status: 'processing', rejectionReason: null, rejectionNote: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(transactions.id, id));
    const changes: AuditChanges = {
      appealStatus: { from: 'pending', to: input.decision },
      appealNote: { from: null, to: input.note },
    };
    if (overturned) {
      changes.status = { from: current.status, to: 'processing' };
      changes.rejectionReason = { from: current.rejectionReason, to: null };
    }
    await auditCard(tx, actor, id, 'appeal_decision', changes);
    await postCardMoneyOf(tx, new Date(context.now()), actor, id);
    await notify(context, tx, current.userId, {
      kind: 'transaction',
      title:
        `${current.cardType} card of ${formatMoney(current.cardValue)}: Appeal ${input.decision}`.slice(
          0,
          200,
        ),
      body: overturned
        ? `Your appeal was accepted: the card is back in review.${input.note ? ` ${input.note}` : ''}`
        : `Your appeal was reviewed and the rejection stands. ${input.note ?? ''}`.trim(),
      link: `/history?card=${id}`,
    });
    return {
      value: undefined,
      changed: [
        change(
          [current.userId, STAFF],
          ['transactions', 'stats', 'notifications', 'queue', 'admin-stats'],
        ),
      ],
    };
  });
}

/**
 * The card's code in full, for a staff member whose role reviews cards (decision 082): each time
 * it is sent, an audit row on the card says who read it. Null when the card has no code or the
 * role does not review (support and finance see the last 4 characters, as lists do).
 */
export async function revealCardCode(
  context: CommandContext,
  actor: Account,
  id: string,
): Promise<Outcome<string | null>> {
  if (!can(actor.staffRole, 'cards.review')) return { value: null, changed: [] };
  return context.db.transaction(async (tx) => {
    const [card] = await tx
      .select({ cardCode: transactions.cardCode, last4: transactions.cardCodeLast4 })
      .from(transactions)
      .where(eq(transactions.id, id));
    if (!card?.cardCode) return { value: null, changed: [] };
    await auditCard(tx, actor, id, 'view_card_code', {
      cardCode: { from: null, to: card.last4 ? `••••${card.last4}` : '••••' },
    });
    return { value: openCardCode(context.config.encryption, card.cardCode), changed: [] };
  });
}
