import { eq, sql } from 'drizzle-orm';
import type { CustomerNote } from '../../../shared/customer-page';
import { displayName } from '../../../shared/user-display';
import type { Account } from '../../common/account';
import { recordAudit } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';
import { change, STAFF } from '../../common/command';
import { notFound } from '../../common/http-error';
import { customerNotes, users } from '../../db/schema';

export const USER_NOT_FOUND = 'User not found';

/**
 * A note staff leave each other about a customer (issue 43 item 15, decision 144): the row and
 * its audit in one transaction. The customer is never told; their data export holds it.
 */
export async function addCustomerNote(
  context: CommandContext,
  author: Account,
  userId: string,
  body: string,
): Promise<Outcome<CustomerNote>> {
  return context.db.transaction(async (tx) => {
    // A share lock: the customer cannot be deleted between this read and the insert.
    const [customer] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, userId))
      .for('key share');
    if (!customer) throw notFound(USER_NOT_FOUND);
    const [row] = await tx
      .insert(customerNotes)
      .values({
        userId,
        authorId: author.id,
        authorName: displayName(author),
        body,
        // The time of the write itself, so notes written at once keep the order they were made in.
        createdAt: sql`clock_timestamp()`,
      })
      .returning();
    await recordAudit(tx, author, {
      entityType: 'user',
      entityId: userId,
      action: 'note',
      changes: { note: { from: null, to: row!.id } },
    });
    return {
      value: {
        id: row!.id,
        body: row!.body,
        authorId: row!.authorId,
        authorName: row!.authorName,
        createdAt: row!.createdAt.toISOString(),
      },
      changed: [change([STAFF], ['users'])],
    };
  });
}
