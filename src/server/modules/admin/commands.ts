import { eq, getTableColumns, sql } from 'drizzle-orm';
import { fromCents, toCents } from '../../../shared/money';
import { rejectionProblems } from '../../../shared/rejections';
import { isPaid } from '../../../shared/statuses';
import type { Account } from '../../common/account';
import { type AuditChanges, recordAudit } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { notify, transactionNotice } from '../../common/notify';
import { holdRulesOf, payoutBlocks } from '../../common/payout-holds';
import { transactions } from '../../db/schema';
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
  const note =
    reason !== 'other' ? null : sentNote === undefined ? current.rejectionNote : sentNote;
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
    if (Object.keys(changes).length === 0) return { value: [], changed: [] };
    // Paying a card held for a new payee or a new account, or of a suspended customer, waits.
    if (set.paymentStatus && isPaid(set.paymentStatus) && !isPaid(current.paymentStatus)) {
      const block = (await payoutBlocks(tx, [id], holdRulesOf(context))).get(id);
      if (block) throw block;
    }
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
        updatedAt: sql`now()`,
      })
      .where(eq(transactions.id, id));
    await recordAudit(tx, actor, {
      entityType: 'transaction',
      entityId: id,
      action: 'update',
      changes,
    });
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
