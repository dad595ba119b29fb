import { and, asc, eq, sql } from 'drizzle-orm';
import {
  CARDS_BOUGHT,
  type Clawback,
  type ClawbackReason,
  type ClawbackStatus,
  LOSSES,
  SELLER_RECEIVABLE,
  signedMoney,
} from '../../../shared/ledger';
import { formatMoney, fromCents, toCents } from '../../../shared/money';
import type { AuditActor } from '../../common/audit';
import { HttpError, lockOr404, notFound } from '../../common/http-error';
import type { Db } from '../../db/client';
import { clawbacks } from '../../db/schema';
import { lockSeller, outstandingOf } from './cards';
import { move, postEntry } from './post';

export const NOTHING_OWED_BACK = 'Nothing is owed back on this clawback';

type ClawbackRow = typeof clawbacks.$inferSelect;

export const toClawback = (row: ClawbackRow, outstanding: number): Clawback => ({
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

/** What was already taken back from a card, in cents. */
export async function takenBackFrom(db: Db, transactionId: string): Promise<number> {
  const [row] = await db
    .select({
      cents: sql<number>`coalesce(sum(${clawbacks.amount}) * 100, 0)::bigint`.mapWith(Number),
    })
    .from(clawbacks)
    .where(eq(clawbacks.transactionId, transactionId));
  return row?.cents ?? 0;
}

/**
 * Records money taken back from a seller for a card (the caller holds the card's lock and checked
 * the amount): the clawback, and its entry, which moves the amount from the cards bought to what
 * the seller owes back. `memo` is the seller's statement line.
 */
export async function recordClawback(
  tx: Db,
  now: Date,
  actor: AuditActor,
  card: { id: string; userId: string },
  input: { amount: number; reason: ClawbackReason; note: string | null; memo: string },
): Promise<Clawback> {
  const [row] = await tx
    .insert(clawbacks)
    .values({
      transactionId: card.id,
      userId: card.userId,
      amount: fromCents(input.amount),
      reason: input.reason,
      note: input.note,
      createdById: actor.id,
      createdAt: now,
    })
    .returning();
  await postEntry(tx, actor, {
    at: now,
    kind: 'clawback',
    transactionId: card.id,
    clawbackId: row!.id,
    userId: card.userId,
    memo: input.memo,
    idempotencyKey: `clawback:${row!.id}`,
    postings: move(input.amount, { account: SELLER_RECEIVABLE, userId: card.userId }, CARDS_BOUGHT),
  });
  return toClawback(row!, input.amount);
}

/**
 * A clawback the seller's appeal overturned (decision 094): what is still owed back on it, all of
 * it (an appeal is open only while nothing of it was netted or written off), goes back to the
 * cards bought, and the clawback is `reversed`. Inside the caller's transaction, the card locked.
 */
export async function reverseClawbacks(
  tx: Db,
  now: Date,
  actor: AuditActor,
  transactionId: string,
): Promise<number> {
  const open = await tx
    .select()
    .from(clawbacks)
    .where(and(eq(clawbacks.transactionId, transactionId), eq(clawbacks.status, 'open')))
    .for('update');
  const outstanding = await outstandingOf(
    tx,
    open.map((c) => c.id),
  );
  let reversed = 0;
  for (const clawback of open) {
    const amount = outstanding.get(clawback.id) ?? 0;
    if (amount <= 0) continue;
    await postEntry(tx, actor, {
      at: now,
      kind: 'clawback_reversed',
      transactionId,
      clawbackId: clawback.id,
      userId: clawback.userId,
      memo: `Appeal accepted: the ${formatMoney(fromCents(amount))} taken back is no longer owed`,
      idempotencyKey: `clawback_reversed:${clawback.id}`,
      postings: move(amount, CARDS_BOUGHT, { account: SELLER_RECEIVABLE, userId: clawback.userId }),
    });
    await tx
      .update(clawbacks)
      .set({ status: 'reversed', closedAt: now })
      .where(eq(clawbacks.id, clawback.id));
    reversed += amount;
  }
  return reversed;
}

/**
 * The clawbacks of a card a seller may still appeal (decision 094): open, taken within
 * `withinMs` of `now`, and nothing of them netted or written off yet.
 */
export async function appealableClawbacks(
  db: Db,
  transactionId: string,
  now: number,
  withinMs: number,
) {
  const open = await db
    .select()
    .from(clawbacks)
    .where(and(eq(clawbacks.transactionId, transactionId), eq(clawbacks.status, 'open')));
  const outstanding = await outstandingOf(
    db,
    open.map((c) => c.id),
  );
  return open.filter(
    (c) =>
      now - c.createdAt.getTime() <= withinMs && (outstanding.get(c.id) ?? 0) === toCents(c.amount),
  );
}

/**
 * Writes off what is still owed back on a clawback (to losses), once: the clawback is locked,
 * so a second write-off at once finds nothing owed (409 `wrong_state`).
 */
export async function writeOffClawback(
  tx: Db,
  now: Date,
  actor: AuditActor,
  id: string,
  note: string,
): Promise<{ clawback: Clawback; amount: number; userId: string; transactionId: string }> {
  // The seller first, then the clawback: the order netting takes them in (lockSeller).
  const [owner] = await tx
    .select({ userId: clawbacks.userId })
    .from(clawbacks)
    .where(eq(clawbacks.id, id));
  if (!owner) throw notFound('Clawback not found');
  await lockSeller(tx, owner.userId);
  const row = await lockOr404(
    tx.select().from(clawbacks).where(eq(clawbacks.id, id)).for('update'),
    'Clawback not found',
  );
  const outstanding = (await outstandingOf(tx, [id])).get(id) ?? 0;
  if (row.status !== 'open' || outstanding <= 0) {
    throw new HttpError(409, NOTHING_OWED_BACK, undefined, { code: 'wrong_state' });
  }
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
  return {
    clawback: toClawback(closed!, 0),
    amount: outstanding,
    userId: row.userId,
    transactionId: row.transactionId,
  };
}
