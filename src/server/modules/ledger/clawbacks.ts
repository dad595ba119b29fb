import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  CARDS_BOUGHT,
  CLAWBACK_REASON_LABELS,
  type Clawback,
  type ClawbackReason,
  type ClawbackStatus,
  type CreateClawbackInput,
  LOSSES,
  SELLER_RECEIVABLE,
  signedMoney,
} from '../../../shared/ledger';
import { formatMoney, fromCents, toCents } from '../../../shared/money';
import type { Account } from '../../common/account';
import { auditCard } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
import { notify } from '../../common/notify';
import type { Db } from '../../db/client';
import { clawbacks, ledgerEntries, ledgerPostings, transactions } from '../../db/schema';
import { suspendOnFraudRejections } from '../admin/standing';
import { impliedByCard } from './cards';
import { move, postEntry } from './post';

export const NOT_PAID =
  'Money can only be taken back from a card whose payment was sent or confirmed';
export const NOTHING_OWED_BACK = 'Nothing is owed back on this clawback';

const TOPICS = ['transactions', 'stats', 'notifications', 'queue', 'admin-stats'] as const;

/** What is still owed back on each clawback: its receivable postings, in cents. */
async function outstandingOf(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: ledgerEntries.clawbackId,
      amount: sql<number>`sum(${ledgerPostings.amount})::bigint`.mapWith(Number),
    })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(
      and(inArray(ledgerEntries.clawbackId, ids), eq(ledgerPostings.account, SELLER_RECEIVABLE)),
    )
    .groupBy(ledgerEntries.clawbackId);
  return new Map(rows.map((r) => [r.id!, r.amount]));
}

const toClawback = (row: typeof clawbacks.$inferSelect, outstanding: number): Clawback => ({
  id: row.id,
  transactionId: row.transactionId,
  amount: row.amount,
  outstanding: signedMoney(outstanding),
  reason: row.reason as ClawbackReason,
  note: row.note,
  status: row.status as ClawbackStatus,
  createdAt: row.createdAt.toISOString(),
});

/** A card's clawbacks, oldest first, with what is still owed back on each. */
export async function clawbacksOf(db: Db, transactionId: string): Promise<Clawback[]> {
  const rows = await db
    .select()
    .from(clawbacks)
    .where(eq(clawbacks.transactionId, transactionId))
    .orderBy(asc(clawbacks.createdAt));
  const outstanding = await outstandingOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toClawback(r, outstanding.get(r.id) ?? 0));
}

/** What the seller reads as the reason: the reason's label, or staff's words for Other. */
const reasonText = (reason: ClawbackReason, note: string | null | undefined) =>
  reason === 'other' && note ? note : CLAWBACK_REASON_LABELS[reason];

/**
 * Finance or an owner take money back from a seller for a paid card (issue 39): found redeemed,
 * a balance that differs, a chargeback. Up to what the card paid, less what was already taken
 * back from it; the card is locked, so two clawbacks at once cannot take more than it paid. The
 * seller then owes it back (their receivable), it is netted against their next payouts, and they
 * are told why, in the app and by email. It counts towards the automatic suspension as a fraud
 * rejection does (decision 072).
 */
export async function takeBack(
  context: CommandContext,
  actor: Account,
  transactionId: string,
  input: CreateClawbackInput,
): Promise<Outcome<Clawback>> {
  return context.db.transaction(async (tx) => {
    const [card] = await tx
      .select()
      .from(transactions)
      .where(eq(transactions.id, transactionId))
      .for('update');
    if (!card) throw notFound('Transaction not found');
    const { paid } = impliedByCard(card);
    if (paid === 0) throw new HttpError(409, NOT_PAID, undefined, { code: 'not_paid' });
    const [taken] = await tx
      .select({
        cents: sql<number>`coalesce(sum(${clawbacks.amount}) * 100, 0)::bigint`.mapWith(Number),
      })
      .from(clawbacks)
      .where(eq(clawbacks.transactionId, transactionId));
    const left = paid - (taken?.cents ?? 0);
    const amount = toCents(input.amount);
    if (amount > left) {
      throw new HttpError(
        400,
        left === 0
          ? 'Everything this card paid was already taken back'
          : `At most ${formatMoney(fromCents(left))} is left to take back from this card`,
        { amount: `At most ${formatMoney(fromCents(left))}` },
        { code: 'over_paid' },
      );
    }
    const now = new Date(context.now());
    const [row] = await tx
      .insert(clawbacks)
      .values({
        transactionId,
        userId: card.userId,
        amount: fromCents(amount),
        reason: input.reason,
        note: input.note ?? null,
        createdById: actor.id,
        createdAt: now,
      })
      .returning();
    const why = reasonText(input.reason, input.note);
    await postEntry(tx, actor, {
      at: now,
      kind: 'clawback',
      transactionId,
      clawbackId: row!.id,
      userId: card.userId,
      memo: `Taken back: ${why.charAt(0).toLowerCase()}${why.slice(1)} (card ${card.cardType} ${formatMoney(card.cardValue)})`,
      idempotencyKey: `clawback:${row!.id}`,
      postings: move(amount, { account: SELLER_RECEIVABLE, userId: card.userId }, CARDS_BOUGHT),
    });
    await auditCard(tx, actor, transactionId, 'clawback', {
      clawback: {
        from: null,
        to: { amount: fromCents(amount), reason: input.reason, note: input.note ?? null },
      },
    });
    await notify(context, tx, card.userId, {
      kind: 'transaction',
      title:
        `${card.cardType} card of ${formatMoney(card.cardValue)}: ${formatMoney(fromCents(amount))} taken back`.slice(
          0,
          200,
        ),
      body: `${why}.${input.note && input.reason !== 'other' ? ` ${input.note}` : ''} We paid ${formatMoney(fromCents(paid))} for this card and take back ${formatMoney(fromCents(amount))}: it is set against your next payouts. You can appeal within 14 days from the card in History.`,
      link: `/history?card=${transactionId}`,
    });
    const suspended = await suspendOnFraudRejections(context, tx, actor, card.userId);
    return {
      value: toClawback(row!, amount),
      changed: [change([card.userId, STAFF], [...TOPICS]), ...suspended],
    };
  });
}

/**
 * Finance write off what is still owed back on a clawback (to losses), with a reason, once: the
 * clawback is locked, so a second write-off at once finds nothing owed (409). Audited on the card.
 */
export async function writeOff(
  context: CommandContext,
  actor: Account,
  id: string,
  note: string,
): Promise<Outcome<Clawback>> {
  return context.db.transaction(async (tx) => {
    const [row] = await tx.select().from(clawbacks).where(eq(clawbacks.id, id)).for('update');
    if (!row) throw notFound('Clawback not found');
    const outstanding = (await outstandingOf(tx, [id])).get(id) ?? 0;
    if (row.status !== 'open' || outstanding <= 0) {
      throw new HttpError(409, NOTHING_OWED_BACK, undefined, { code: 'wrong_state' });
    }
    const now = new Date(context.now());
    await postEntry(tx, actor, {
      at: now,
      kind: 'write_off',
      transactionId: row.transactionId,
      clawbackId: id,
      userId: row.userId,
      memo: `Written off: ${formatMoney(fromCents(outstanding))} you owed back is no longer owed`,
      idempotencyKey: `write_off:${id}`,
      postings: move(outstanding, LOSSES, { account: SELLER_RECEIVABLE, userId: row.userId }),
    });
    const [closed] = await tx
      .update(clawbacks)
      .set({ status: 'written_off', writeOffNote: note, closedAt: now })
      .where(eq(clawbacks.id, id))
      .returning();
    await auditCard(tx, actor, row.transactionId, 'write_off', {
      writtenOff: { from: null, to: { clawbackId: id, amount: fromCents(outstanding), note } },
    });
    return {
      value: toClawback(closed!, 0),
      changed: [change([row.userId, STAFF], ['transactions', 'stats', 'admin-stats'])],
    };
  });
}
