import type { Account } from '../../common/account';
import type { CommandContext, Outcome } from '../../common/command';
import { STANDING_AFTER, type StandingAction, setStanding } from '../../common/standing';
import { rejectPendingCards } from '../cards';
import { deleteAccountSessions } from '../sessions';

/**
 * Staff suspend, close or reinstate a customer (decision 072); audited and emailed. Closing also
 * ends every session and rejects the cards still pending.
 */
export async function changeStanding(
  context: CommandContext,
  actor: Account,
  userId: string,
  action: StandingAction,
  input: { reason?: string; note?: string | null } = {},
): Promise<Outcome<string>> {
  return context.db.transaction(async (tx) => {
    const changed = await setStanding(context, tx, actor, userId, action, input);
    if (action === 'close') {
      await rejectPendingCards(context, tx, actor, userId);
      const ended = await deleteAccountSessions(tx, { kind: 'user', id: userId });
      changed.push({ sessionsEnded: ended });
    }
    return { value: STANDING_AFTER[action], changed };
  });
}
