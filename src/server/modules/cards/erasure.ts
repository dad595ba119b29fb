import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';

/**
 * An erased account's own words on its cards (decision 083): the notes it wrote and its appeals'
 * messages; the cards, their amounts and their decisions stay. Inside the erasure's transaction.
 * Words only, not the lifecycle: written here directly, not through changeCard.
 */
export async function eraseCustomerWords(tx: Db, userId: string) {
  await tx
    .update(transactions)
    .set({ notes: null, appealMessage: null })
    .where(eq(transactions.userId, userId));
}
