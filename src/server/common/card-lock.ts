import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { transactions } from '../db/schema';
import { notFound } from './http-error';

/**
 * A card, locked for the rest of the database transaction; with `ownerId`, only that customer's
 * (anyone else's is a 404, as is a card that does not exist).
 */
export async function lockCard(tx: Db, id: string, ownerId?: string) {
  const [card] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), ownerId ? eq(transactions.userId, ownerId) : undefined))
    .for('update');
  if (!card) throw notFound('Transaction not found');
  return card;
}
