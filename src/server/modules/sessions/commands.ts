import { eq } from 'drizzle-orm';
import type { Account } from '../../common/account';
import { recordAudit } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';
import { notFound } from '../../common/http-error';
import { users } from '../../db/schema';
import { deleteAccountSessions } from '../../plugins/session';

/**
 * Staff end every session of a customer (a stolen phone, a suspected takeover), audited in the
 * same transaction. Answers how many ended.
 */
export async function endCustomerSessions(
  context: CommandContext,
  actor: Account,
  customerId: string,
): Promise<Outcome<number>> {
  return context.db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, customerId));
    if (!user) throw notFound('User not found');
    const ended = await deleteAccountSessions(tx, { kind: 'user', id: customerId });
    await recordAudit(tx, actor, {
      entityType: 'user',
      entityId: customerId,
      action: 'end_sessions',
      changes: { sessions: { from: ended.length, to: 0 } },
    });
    return { value: ended.length, changed: [{ sessionsEnded: ended }] };
  });
}
