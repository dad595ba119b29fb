import { isUuid } from '../../../shared/ids';
import { NOT_WITHDRAWABLE, WITHDRAWN } from '../../../shared/transactions';
import type { Account } from '../../common/account';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
import { CARD_TOPICS, changeCard, lockCard } from './change';
import { claimantOf } from './claims';

/**
 * The seller takes back a card of theirs before review (issue 43 item 19, decision 135): only
 * while it is pending, no reviewer holds it (decision 078's claim), no revised offer waits for
 * its answer and nothing was paid. It becomes `withdrawn`, for good: it leaves staff's queue, its
 * value no longer counts against the selling limits, and the books do not move, since nothing
 * was owed for it. The card's row lock decides between a withdrawal and a reviewer's claim sent
 * at once: whichever comes second sees the first.
 */
export async function withdrawCard(
  context: CommandContext,
  customer: Account,
  id: string,
): Promise<Outcome<void>> {
  if (!isUuid(id)) throw notFound('Transaction not found');
  return context.db.transaction(async (tx) => {
    const card = await lockCard(tx, id, customer.id);
    const claimed = claimantOf(card, context.now()) !== null;
    if (
      card.status !== 'pending' ||
      claimed ||
      card.offerStatus === 'pending' ||
      card.paymentStatus !== 'pending'
    ) {
      throw new HttpError(409, NOT_WITHDRAWABLE, undefined, { code: 'not_withdrawable' });
    }
    await changeCard(context, tx, customer, card, { status: WITHDRAWN }, 'withdraw', {
      status: { from: card.status, to: WITHDRAWN },
    });
    return { value: undefined, changed: [change([customer.id, STAFF], CARD_TOPICS)] };
  });
}
