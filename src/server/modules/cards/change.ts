import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { LiveTopic } from '../../../shared/live';
import { type AuditActor, type AuditChanges, auditCard } from '../../common/audit';
import type { CommandContext } from '../../common/command';
import { lockOr404 } from '../../common/http-error';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { postCardMoney } from '../ledger';
import { queueWebhookEvent } from '../webhooks';
import { partnerCard } from './partner';

/** A card's row, every column. */
export type Card = typeof transactions.$inferSelect;

/** The topics a transition of a card changes, for its customer and for staff. */
export const CARD_TOPICS: LiveTopic[] = [
  'transactions',
  'stats',
  'notifications',
  'queue',
  'admin-stats',
];

/**
 * A card, locked for the rest of the database transaction; with `ownerId`, only that customer's
 * (anyone else's is a 404, as is a card that does not exist).
 */
export async function lockCard(tx: Db, id: string, ownerId?: string): Promise<Card> {
  return lockOr404(
    tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.id, id), ownerId ? eq(transactions.userId, ownerId) : undefined))
      .for('update'),
    'Transaction not found',
  );
}

/**
 * The one write of a card's lifecycle and money: every UPDATE that changes its status, payment
 * (status, amount, reference, paidAt), rejection, offer or appeal comes here, whoever acts
 * (customer, staff, a job, payouts, an account's closing), batches included. `before` is the whole
 * row as read FOR UPDATE in this transaction; the row after is answered whole. Whatever must see
 * both sides of every transition (the audit row here, the ledger's posting) belongs in this
 * function, with the command's `context` (there for the ledger, unused yet). Writes of other
 * columns (a claim, the checks' verdict, a re-sealed code, the customer's words erased) are made
 * where they happen, and say so; change.test.ts reads the source to keep it so.
 */
export async function changeCard(
  context: CommandContext,
  tx: Db,
  actor: AuditActor,
  before: Card,
  set: PgUpdateSetSource<typeof transactions>,
  action: string,
  changes: AuditChanges,
): Promise<Card> {
  const [after] = await tx
    .update(transactions)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(transactions.id, before.id))
    .returning();
  await auditCard(tx, actor, before.id, action, changes);
  // The books follow the card in the same transaction (issue 39, decision 093).
  await postCardMoney(tx, new Date(context.now()), actor, after!, before);
  // The seller's webhooks hear of it from the outbox, written in the same transaction (decision 127).
  await queueWebhookEvent(
    tx,
    after!.userId,
    'card.updated',
    () => partnerCard(tx, after!.userId, after!.id),
    context.now(),
  );
  return after!;
}
