import { and, eq, isNull, lte, or } from 'drizzle-orm';
import { CLAIM_MINUTES, type Claim, type Claimant, claimedMessage } from '../../../shared/admin';
import { WITHDRAWN, WITHDRAWN_BY_SELLER } from '../../../shared/transactions';
import { displayName } from '../../../shared/user-display';
import type { Account } from '../../common/account';
import { auditCard } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, lockOr404 } from '../../common/http-error';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';

/**
 * Claimed reviews (decision 078). A claim is three columns of the card's row, none of them its
 * lifecycle or its money, so they are written here directly, not through changeCard.
 */

/** Who holds the card for review at `now`: nobody once the claim lapsed. */
export const claimantOf = (
  row: { claimedById: string | null; claimedByName: string | null; claimedUntil: Date | null },
  now: number,
): Claimant | null =>
  row.claimedById && row.claimedUntil && row.claimedUntil.getTime() > now
    ? { id: row.claimedById, name: row.claimedByName ?? 'Staff' }
    : null;

/** The name staff see on a card another staff member holds. */
const claimantName = (actor: Account) =>
  displayName({ firstName: actor.firstName, lastName: actor.lastName, email: actor.email });

/** A take-over of another staff member's claim, in the card's history. */
const auditTakeOver = (tx: Db, actor: Account, cardId: string, holder: Claimant) =>
  auditCard(tx, actor, cardId, 'take_over', {
    claimedBy: { from: holder.name, to: claimantName(actor) },
  });

/**
 * Inside a save of a locked card: refuses with 409 `claimed` while another staff member's claim
 * lasts, unless `takeOver`, which is audited. Answers whether a claim was taken over.
 */
export async function checkClaim(
  context: CommandContext,
  tx: Db,
  actor: Account,
  card: typeof transactions.$inferSelect,
  takeOver: boolean,
): Promise<boolean> {
  const holder = claimantOf(card, context.now());
  if (!holder || holder.id === actor.id) return false;
  if (!takeOver) {
    throw new HttpError(409, claimedMessage(holder), undefined, { code: 'claimed', by: holder });
  }
  await auditTakeOver(tx, actor, card.id, holder);
  return true;
}

/** Ends `actor`'s claim on the card, if they hold it. Answers whether there was one. */
export async function releaseClaimIn(tx: Db, id: string, actor: Account) {
  const released = await tx
    .update(transactions)
    .set({ claimedById: null, claimedByName: null, claimedUntil: null })
    .where(and(eq(transactions.id, id), eq(transactions.claimedById, actor.id)))
    .returning({ id: transactions.id });
  return released.length > 0;
}

/**
 * Staff open a card for review: it is theirs for CLAIM_MINUTES, renewed by each claim (the dialog
 * claims again while it stays open). The row lock decides between two staff claiming at once: the
 * second reads the first's claim, and takes the row only when it is free, lapsed or already
 * theirs, or with `takeOver` (audited). Otherwise 409 `{ code: 'claimed', by }`.
 */
export async function claimCard(
  context: CommandContext,
  actor: Account,
  id: string,
  takeOver = false,
): Promise<Outcome<Claim>> {
  return context.db.transaction(async (tx) => {
    const now = new Date(context.now());
    const until = new Date(now.getTime() + CLAIM_MINUTES * 60_000);
    const free = or(
      isNull(transactions.claimedById),
      eq(transactions.claimedById, actor.id),
      lte(transactions.claimedUntil, now),
    );
    const previous = await lockOr404(
      tx
        .select({
          claimedById: transactions.claimedById,
          claimedByName: transactions.claimedByName,
          claimedUntil: transactions.claimedUntil,
          status: transactions.status,
        })
        .from(transactions)
        .where(eq(transactions.id, id))
        .for('update'),
      'Transaction not found',
    );
    // A card its seller withdrew is nobody's to review (decision 135).
    if (previous.status === WITHDRAWN) {
      throw new HttpError(409, WITHDRAWN_BY_SELLER, undefined, { code: 'withdrawn' });
    }
    const [taken] = await tx
      .update(transactions)
      .set({ claimedById: actor.id, claimedByName: claimantName(actor), claimedUntil: until })
      .where(and(eq(transactions.id, id), takeOver ? undefined : free))
      .returning({ id: transactions.id });
    // Not taken: the row (locked above) holds another staff member's claim that has not lapsed.
    const holder = claimantOf(previous, now.getTime());
    if (!taken) {
      throw new HttpError(409, claimedMessage(holder!), undefined, { code: 'claimed', by: holder });
    }
    if (takeOver && holder && holder.id !== actor.id) await auditTakeOver(tx, actor, id, holder);
    const changed = holder?.id === actor.id ? [] : [change([STAFF], ['queue'])];
    return {
      value: {
        claimedBy: { id: actor.id, name: claimantName(actor) },
        claimedUntil: until.toISOString(),
      },
      changed,
    };
  });
}

/** Staff close a card's dialog: their claim ends (someone else's stays). */
export async function releaseClaim(
  context: CommandContext,
  actor: Account,
  id: string,
): Promise<Outcome<{ released: boolean }>> {
  const released = await releaseClaimIn(context.db, id, actor);
  return { value: { released }, changed: released ? [change([STAFF], ['queue'])] : [] };
}
