import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { PRODUCT_NAME } from '../../../shared/brand';
import {
  APPEAL_ALREADY_MADE,
  APPEAL_NOT_PENDING,
  APPEAL_NOT_REJECTED,
  APPEAL_WINDOW_CLOSED,
  APPEAL_WINDOW_DAYS,
  type AppealDecisionInput,
  type createAppealSchema,
} from '../../../shared/fair-dealing';
import { isUuid } from '../../../shared/ids';
import { formatMoney } from '../../../shared/money';
import { LIMIT_PHRASES, type LimitName } from '../../../shared/verification';
import type { Account } from '../../common/account';
import { lockAccount } from '../../common/accounts';
import type { AuditChanges } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { notify } from '../../common/notify';
import { transactions } from '../../db/schema';
import { claimCardImages } from '../files';
import { sellingLimitRefusal } from '../verification';
import { CARD_TOPICS, changeCard, lockCard } from './change';
import { alertStaff } from './staff-alert';
import { IMAGES_NOT_YOURS } from './submit';

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
    await changeCard(
      context,
      tx,
      customer,
      card,
      {
        appealStatus: 'pending',
        appealMessage: input.message,
        appealImageUrls: input.imageUrls,
        appealCreatedAt: new Date(context.now()),
      },
      'appeal',
      {
        appealStatus: { from: null, to: 'pending' },
        appealMessage: { from: null, to: input.message },
        ...(input.imageUrls.length > 0
          ? { appealImageUrls: { from: null, to: input.imageUrls } }
          : {}),
      },
    );
    await alertStaff(tx, context, {
      subject: `${PRODUCT_NAME}: a customer appealed a rejected card`,
      lines: [
        `${customer.email} appealed the rejection of their ${card.cardType} card of ${formatMoney(card.cardValue)} (${id.slice(0, 8)}).`,
        `Their message: ${input.message}`,
        'Decide it in the portal: Uploads, filter Appeals.',
      ],
    });
    return {
      value: undefined,
      changed: [change([customer.id, STAFF], ['transactions', 'stats', 'queue', 'admin-stats'])],
    };
  });
}

/**
 * Staff decide a customer's appeal, once and for good (decision 073): `upheld` keeps the card
 * rejected and says why; `overturned` returns it to review (pending), without its rejection and
 * with the appeal (its message, the decision's note) on it, for a fresh decision. A card coming
 * back counts against the customer's selling limits as a submission does (decision 105): past
 * one, nothing changes and the answer (409 `over_limit`) says which.
 */
export async function decideAppeal(
  context: CommandContext,
  actor: Account,
  id: string,
  input: { decision: AppealDecisionInput['decision']; note: string | null },
): Promise<Outcome<void>> {
  return context.db.transaction(async (tx) => {
    // The customer's row before the card, as a submission locks them: an overturn and a
    // submission (or two overturns) of one customer are counted one after the other.
    const [owner] = await tx
      .select({ userId: transactions.userId })
      .from(transactions)
      .where(eq(transactions.id, id));
    if (!owner) throw notFound('Transaction not found');
    const account = await lockAccount(tx, owner.userId);
    if (!account) throw notFound('Transaction not found');
    const current = await lockCard(tx, id);
    if (current.appealStatus !== 'pending') {
      throw new HttpError(409, APPEAL_NOT_PENDING, undefined, { code: 'appeal_not_pending' });
    }
    const overturned = input.decision === 'overturned';
    if (overturned) {
      const refusal = await sellingLimitRefusal(
        tx,
        current.userId,
        account.verificationLevel,
        current.cardValue,
        context.now(),
      );
      if (refusal) throw overLimit(refusal);
    }
    const changes: AuditChanges = {
      appealStatus: { from: 'pending', to: input.decision },
      appealNote: { from: null, to: input.note },
    };
    if (overturned) {
      changes.status = { from: current.status, to: 'pending' };
      changes.rejectionReason = { from: current.rejectionReason, to: null };
      if (current.rejectionNote !== null) {
        changes.rejectionNote = { from: current.rejectionNote, to: null };
      }
    }
    await changeCard(
      context,
      tx,
      actor,
      current,
      {
        appealStatus: input.decision,
        appealDecidedAt: new Date(context.now()),
        appealNote: input.note,
        ...(overturned ? { status: 'pending', rejectionReason: null, rejectionNote: null } : {}),
      },
      'appeal_decision',
      changes,
    );
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
    return { value: undefined, changed: [change([current.userId, STAFF], CARD_TOPICS)] };
  });
}

/** 409 for an overturn past a selling limit: which one, in staff's words. */
function overLimit(refusal: { limit: LimitName; amount: string; left: string | null }) {
  const what =
    refusal.left === null
      ? `Overturning would return a card over the customer's limit of ${refusal.amount} per card`
      : `Overturning would take the customer over their limit of ${refusal.amount} ${LIMIT_PHRASES[refusal.limit]} (${refusal.left} left)`;
  return new HttpError(
    409,
    `${what}, so the card stays rejected and the appeal stays open. Overturn it once the limit allows (the window moves on, or the customer verifies), or uphold it.`,
    undefined,
    { code: 'over_limit', limit: refusal.limit },
  );
}
