import type { Account } from '../../common/account';
import { recordAudit } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';

/** Records that staff exported the payout list (it holds account numbers). */
export async function recordPayoutExport(
  context: CommandContext,
  actor: Account,
  count: number,
): Promise<Outcome<void>> {
  await recordAudit(context.db, actor, {
    entityType: 'payouts',
    entityId: null,
    action: 'export',
    changes: { cards: { from: null, to: count } },
  });
  return { value: undefined, changed: [] };
}
