import { eq, getTableColumns, sql } from 'drizzle-orm';
import { BELOW_QUOTE, OFFER_PENDING } from '../../../shared/fair-dealing';
import { formatMoney, fromCents, toCents } from '../../../shared/money';
import { rejectionProblems } from '../../../shared/rejections';
import { can, FORBIDDEN_ROLE, STAFF_ROLE_LABELS } from '../../../shared/staff-roles';
import { isPaid } from '../../../shared/statuses';
import { WITHDRAWN, WITHDRAWN_BY_SELLER } from '../../../shared/transactions';
import type { Account } from '../../common/account';
import type { AUTO_ACTOR, AuditChanges } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, lockOr404 } from '../../common/http-error';
import { notify, transactionNotice } from '../../common/notify';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { takenBackFrom } from '../ledger';
import { suspendOnFraudRejections } from './account-standing';
import { CARD_TOPICS, type Card, changeCard } from './change';
import { checkClaim, releaseClaimIn } from './claims';
import { amountDueOf, checkCeiling } from './over-value';
import { refusalToPay } from './payment';
import { holdRulesOf, payoutBlocks } from './payout-holds';

const CLAWED_BACK =
  'Money was taken back from this payment: its payment status and amount stay as they are';

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
 * the row changed since `expectedUpdatedAt` (decisions 014 and 108). Fields that do not change
 * are not written.
 */
export async function updateTransactionAsStaff(
  context: CommandContext,
  actor: Account,
  id: string,
  input: TransactionChanges,
  {
    expectedUpdatedAt,
    takeOver = false,
    overValueReason,
  }: { expectedUpdatedAt: string; takeOver?: boolean; overValueReason?: string },
): Promise<Outcome<string[]>> {
  return context.db.transaction(async (tx) => {
    const row = await lockOr404(
      tx
        .select({
          ...getTableColumns(transactions),
          updatedAtMs: sql<string>`date_trunc('milliseconds', ${transactions.updatedAt})`,
        })
        .from(transactions)
        .where(eq(transactions.id, id))
        .for('update'),
      'Transaction not found',
    );
    if (new Date(row.updatedAtMs).getTime() !== new Date(expectedUpdatedAt).getTime()) {
      throw new HttpError(409, STALE_SAVE);
    }
    // A card its seller withdrew is final (decision 135).
    if (row.status === WITHDRAWN) {
      throw new HttpError(409, WITHDRAWN_BY_SELLER, undefined, { code: 'withdrawn' });
    }
    const { updatedAtMs: _seen, ...current } = row;
    return decideCard(context, tx, actor, current, input, { takeOver, overValueReason });
  });
}

/**
 * A decision or edit of a card locked in this transaction, by staff or by the instant-decision
 * rules (`AUTO_ACTOR`, decision 131): the one approval path, so both write the same audit row,
 * notices, ledger entry and live topics. `also` adds columns and audit changes of the caller's
 * (the instant decision's rules).
 */
export async function decideCard(
  context: CommandContext,
  tx: Db,
  actor: Account | typeof AUTO_ACTOR,
  current: Card,
  input: TransactionChanges,
  {
    takeOver = false,
    overValueReason,
    also,
  }: {
    takeOver?: boolean;
    overValueReason?: string;
    also?: { set: Partial<typeof transactions.$inferInsert>; changes: AuditChanges };
  } = {},
): Promise<Outcome<string[]>> {
  {
    const id = current.id;
    // Staff, not the rules, hold claims and roles.
    const staff = actor.kind === 'auto' ? null : actor;
    // Another staff member holds the card (decision 078): theirs unless this save takes it over.
    const tookOver = staff ? await checkClaim(context, tx, staff, current, takeOver) : false;

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
    // A card's payment is for finance and owners (decision 107): reviewers decide cards.
    if (
      staff &&
      ('paymentStatus' in changes || 'payoutReference' in changes) &&
      !can(staff.staffRole, 'payouts')
    ) {
      throw new HttpError(
        403,
        `Your role (${STAFF_ROLE_LABELS[staff.staffRole ?? 'reviewer']}) cannot change a card’s payment: that is for finance and owners.`,
        undefined,
        { code: FORBIDDEN_ROLE },
      );
    }
    // A save ends the claim: the card is free for the next reviewer.
    const released = staff ? await releaseClaimIn(tx, id, staff) : false;
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
    // The amount due is a promise both ways: the quote, or the revised offer the customer
    // accepted; never below it (decision 073), above it only by an owner with a reason (106).
    if (set.paymentAmount) {
      const due = amountDueOf(current);
      const accepted = current.offerStatus === 'accepted';
      if (toCents(set.paymentAmount) < toCents(due)) {
        throw new HttpError(
          409,
          accepted
            ? `The payment amount cannot be below the accepted offer of ${formatMoney(due)}`
            : BELOW_QUOTE,
          { paymentAmount: `At least ${formatMoney(due)}` },
          { code: 'below_quote' },
        );
      }
      Object.assign(
        changes,
        checkCeiling(staff, { value: set.paymentAmount, ceiling: due, accepted }, overValueReason, {
          field: 'paymentAmount',
          what: 'payment amount',
          most: formatMoney(due),
        }),
      );
    }
    // Marked paid here, a card follows mark-sent's rules (decision 107): approved (by this save
    // or before), not held, its customer not suspended; the amount due is recorded.
    if (set.paymentStatus && isPaid(set.paymentStatus) && !isPaid(current.paymentStatus)) {
      const blocks = await payoutBlocks(tx, [id], holdRulesOf(context));
      const refusal = refusalToPay({ ...current, status: set.status ?? current.status }, blocks);
      if (refusal) throw refusal;
      const amount = 'paymentAmount' in set ? set.paymentAmount : current.paymentAmount;
      if (!amount) {
        set.paymentAmount = current.expectedPayout;
        changes.paymentAmount = { from: current.paymentAmount, to: current.expectedPayout };
      }
    }
    // Money taken back from a paid card (issue 39) was taken back from that payment: the payment
    // stands while a clawback does, whatever staff edit (decision 093).
    const unpaid = set.paymentStatus !== undefined && !isPaid(set.paymentStatus ?? '');
    if (isPaid(current.paymentStatus) && (unpaid || 'paymentAmount' in set)) {
      if ((await takenBackFrom(tx, id)) > 0) {
        throw new HttpError(409, CLAWED_BACK, undefined, { code: 'clawed_back' });
      }
    }
    // Review times count from submission to the first decision; an appeal counts from rejection.
    const decided =
      'status' in changes && current.firstDecisionAt === null
        ? { firstDecisionAt: staff ? sql`now()` : new Date(context.now()) }
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
    // status and paymentStatus are never null here: the schema only admits their values.
    await changeCard(
      context,
      tx,
      actor,
      current,
      {
        ...(set as Partial<typeof transactions.$inferInsert>),
        ...paidAt,
        ...decided,
        ...rejected,
        ...also?.set,
      },
      'update',
      { ...changes, ...also?.changes },
    );
    // The customer hears of a decision (status, payment); a note alone is not news.
    const notice = transactionNotice({ ...current, ...rejection }, changes);
    if (notice) await notify(context, tx, current.userId, notice);
    const suspended =
      staff && (changes.status?.to === 'rejected' || 'rejectionReason' in changes)
        ? await suspendOnFraudRejections(context, tx, staff, current.userId, rejection)
        : [];
    return {
      value: Object.keys(changes),
      changed: [change([current.userId, STAFF], CARD_TOPICS), ...suspended],
    };
  }
}
