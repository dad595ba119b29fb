import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  allocateNetting,
  CARDS_BOUGHT,
  CREDIT_KINDS,
  type EntryKind,
  PAID_OUT,
  PAYMENT_KINDS,
  paidOutAccount,
  SELLER_PAYABLE,
  SELLER_RECEIVABLE,
} from '../../../shared/ledger';
import { formatMoney, fromCents, toCents } from '../../../shared/money';
import { paymentMethodLabel } from '../../../shared/payment-methods';
import { isPayable } from '../../../shared/payouts';
import { isPaid } from '../../../shared/statuses';
import { lockAccount } from '../../common/accounts';
import type { AuditActor } from '../../common/audit';
import type { Db } from '../../db/client';
import {
  clawbacks,
  ledgerEntries,
  ledgerPostings,
  paymentMethods,
  transactions,
} from '../../db/schema';
import { move, postEntry } from './post';

type Card = typeof transactions.$inferSelect;

/** What a card implies for the books, in cents: what it credits its seller, and what was paid. */
export interface CardMoney {
  credited: number;
  paid: number;
}

/**
 * The card's money as its columns say it (decisions 052, 060, 093): a paid card (sent or
 * confirmed) credited and paid its payment amount; an approved card waiting for payment, and not
 * for a revised offer's answer, credits what it will pay (staff's amount, else the quote);
 * anything else, nothing. Migration 0026 opened the books by the same rules, and
 * `npm run ledger:check` compares every card with them.
 */
export function impliedByCard(card: Card): CardMoney {
  if (isPaid(card.paymentStatus)) {
    const paid = card.paymentAmount === null ? 0 : toCents(card.paymentAmount);
    return { credited: paid, paid };
  }
  if (isPayable(card)) {
    return { credited: toCents(card.paymentAmount ?? card.expectedPayout), paid: 0 };
  }
  return { credited: 0, paid: 0 };
}

/** What the books hold for one card: its credit and payment, and how each was posted. */
async function postedForCard(tx: Db, cardId: string) {
  const rows = await tx
    .select({
      kind: ledgerPostings.kind,
      account: ledgerPostings.account,
      clawbackId: ledgerEntries.clawbackId,
      amount: sql<number>`sum(${ledgerPostings.amount})::bigint`.mapWith(Number),
    })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(eq(ledgerEntries.transactionId, cardId))
    .groupBy(ledgerPostings.kind, ledgerPostings.account, ledgerEntries.clawbackId);
  const [{ entries }] = (await tx
    .select({ entries: sql<number>`count(*)::int` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.transactionId, cardId))) as [{ entries: number }];
  let credited = 0;
  let paid = 0;
  /** Paid out per account, and netted per clawback, still standing. */
  const paidOut = new Map<string, number>();
  const netted = new Map<string, number>();
  for (const r of rows) {
    const kind = r.kind as EntryKind;
    if (r.account === SELLER_PAYABLE && CREDIT_KINDS.includes(kind)) credited -= r.amount;
    if (r.account === SELLER_PAYABLE && PAYMENT_KINDS.includes(kind)) paid += r.amount;
    if (r.account.startsWith(`${PAID_OUT}:`) && PAYMENT_KINDS.includes(kind)) {
      paidOut.set(r.account, (paidOut.get(r.account) ?? 0) - r.amount);
    }
    if (r.account === SELLER_RECEIVABLE && PAYMENT_KINDS.includes(kind) && r.clawbackId) {
      netted.set(r.clawbackId, (netted.get(r.clawbackId) ?? 0) - r.amount);
    }
  }
  return { credited, paid, paidOut, netted, entries };
}

/** "Cash App $cas…" or "Bank Transfer ••••6789": where a payment went, as a statement says it. */
function payeeOf(
  method: { type: string; identifier: string | null; accountNumber: string | null } | undefined,
) {
  if (!method) return 'no payment method';
  const hint = method.identifier
    ? `${method.identifier.slice(0, 4)}…`
    : method.accountNumber
      ? `••••${method.accountNumber.slice(-4)}`
      : '';
  return `${paymentMethodLabel(method.type)}${hint ? ` ${hint}` : ''}`;
}

/**
 * Locks the seller's row for a change of what they owe back or are sent (decision 093): netting,
 * a clawback, a write-off, a batch working out what to send. Always after the card's row and
 * before the clawbacks' rows, so two of these never wait for each other in a circle; FOR NO KEY
 * UPDATE, as every lock on a customer's row is (lockAccount).
 */
export async function lockSeller(tx: Db, userId: string) {
  await lockAccount(tx, userId);
}

/**
 * What is still owed back on each clawback: its receivable postings (all its seller's), in cents.
 */
export async function outstandingOf(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: ledgerEntries.clawbackId,
      amount: sql<number>`sum(${ledgerPostings.amount})::bigint`.mapWith(Number),
    })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(
      and(inArray(ledgerEntries.clawbackId, ids), eq(ledgerPostings.account, SELLER_RECEIVABLE)),
    )
    .groupBy(ledgerEntries.clawbackId);
  return new Map(rows.map((r) => [r.id!, r.amount]));
}

/**
 * The seller's clawbacks that netting may settle, oldest first, with what is still owed back on
 * each: open, and not under the seller's appeal (decision 094), which holds them until decided.
 * With `lock`, locked for the netting.
 */
export async function nettableClawbacks(tx: Db, userId: string, lock = false) {
  const query = tx
    .select({ id: clawbacks.id })
    .from(clawbacks)
    .innerJoin(transactions, eq(transactions.id, clawbacks.transactionId))
    .where(
      and(
        eq(clawbacks.userId, userId),
        eq(clawbacks.status, 'open'),
        sql`${transactions.appealStatus} is distinct from 'pending'`,
      ),
    )
    .orderBy(asc(clawbacks.createdAt), asc(clawbacks.id));
  const open = await (lock ? query.for('update', { of: clawbacks }) : query);
  if (open.length === 0) return [];
  const owed = await outstandingOf(
    tx,
    open.map((c) => c.id),
  );
  return open.map((c) => ({ id: c.id, outstanding: owed.get(c.id) ?? 0 }));
}

/**
 * What the seller is owed card by card (the payable sub-account per card), for the cards not yet
 * paid, oldest first (as the payouts list orders them).
 */
export async function owedCards(db: Db, userId: string) {
  const rows = await db
    .select({
      id: transactions.id,
      owed: sql<number>`(-sum(${ledgerPostings.amount}))::bigint`.mapWith(Number),
    })
    .from(ledgerPostings)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .innerJoin(transactions, eq(transactions.id, ledgerEntries.transactionId))
    .where(and(eq(ledgerPostings.userId, userId), eq(ledgerPostings.account, SELLER_PAYABLE)))
    .groupBy(transactions.id)
    .having(sql`sum(${ledgerPostings.amount}) <> 0`)
    .orderBy(asc(transactions.createdAt), asc(transactions.id));
  return rows;
}

/**
 * Brings the books in line with the card, inside the transaction that changed it (its row is
 * locked): the difference between what the card implies and what is posted for it becomes one
 * entry for its credit and, for its payment, the payment's reversal and the new payment, netted
 * first against what the seller owes back (oldest clawback first). A card already in line posts
 * nothing, so a second identical change (a double click, a retry) posts nothing. Each entry's key
 * is the card and the entry's number among the card's entries, which the row lock makes stable.
 * Answers whether anything was posted.
 */
export async function postCardMoney(
  tx: Db,
  now: Date,
  actor: AuditActor,
  card: Card,
  before?: Pick<Card, 'offerStatus'>,
): Promise<boolean> {
  const target = impliedByCard(card);
  const posted = await postedForCard(tx, card.id);
  if (target.credited === posted.credited && target.paid === posted.paid) return false;
  let count = posted.entries;
  const base = { at: now, transactionId: card.id, userId: card.userId };
  const payable = { account: SELLER_PAYABLE, userId: card.userId };
  const receivable = { account: SELLER_RECEIVABLE, userId: card.userId };
  const post = (
    kind: EntryKind,
    memo: string,
    postings: ReturnType<typeof move>,
    clawbackId?: string,
  ) =>
    postEntry(tx, actor, {
      ...base,
      kind,
      memo,
      clawbackId: clawbackId ?? null,
      idempotencyKey: `card:${card.id}:${++count}`,
      postings,
    });
  const cardName = `Card ${card.cardType} ${formatMoney(card.cardValue)}`;

  const credit = target.credited - posted.credited;
  if (credit !== 0) {
    const kind: EntryKind =
      posted.credited === 0
        ? before?.offerStatus === 'pending' && card.offerStatus === 'accepted'
          ? 'offer_accepted'
          : 'card_approved'
        : target.credited === 0
          ? 'card_reversed'
          : 'card_adjusted';
    const memo = {
      card_approved: `${cardName} approved`,
      offer_accepted: `${cardName}: revised offer of ${formatMoney(fromCents(target.credited))} accepted`,
      card_reversed: `${cardName}: approval reversed`,
      card_adjusted: `${cardName}: payout changed to ${formatMoney(fromCents(target.credited))}`,
    }[kind as 'card_approved'];
    await post(kind, memo, move(credit, CARDS_BOUGHT, payable));
  }

  if (target.paid !== posted.paid) {
    // What the seller owes back cannot change while a payment is undone or made (and the seller's
    // row is taken before any clawback's, as everywhere: lockSeller).
    await lockSeller(tx, card.userId);
    const [method] = card.paymentMethodId
      ? await tx
          .select({
            type: paymentMethods.type,
            identifier: paymentMethods.identifier,
            accountNumber: paymentMethods.accountNumber,
          })
          .from(paymentMethods)
          .where(eq(paymentMethods.id, card.paymentMethodId))
      : [];
    const payee = payeeOf(method);
    // A payment that changed is taken back whole, then made again at the new amount.
    for (const [clawbackId, amount] of posted.netted) {
      if (amount === 0) continue;
      await post(
        'netting_reversed',
        `${cardName}: payment set back, so it no longer settles what was owed back`,
        move(amount, receivable, payable),
        clawbackId,
      );
      // Owed back again: open, even if what was left of it had been written off meanwhile.
      await tx
        .update(clawbacks)
        .set({ status: 'open', closedAt: null })
        .where(eq(clawbacks.id, clawbackId));
    }
    for (const [account, amount] of posted.paidOut) {
      if (amount !== 0)
        await post(
          'payment_reversed',
          `Payment to ${payee} set back`,
          move(amount, account, payable),
        );
    }
    if (target.paid > 0) {
      const open = await nettableClawbacks(tx, card.userId, true);
      // The part of the payment that settles what the seller owes back, by the netting rule the
      // payouts list follows too: the amount it shows to send is the amount posted as sent.
      const owedBack = open.reduce((sum, c) => sum + c.outstanding, 0);
      const netting =
        owedBack === 0
          ? 0
          : (allocateNetting(owedBack, await owedCards(tx, card.userId)).get(card.id) ?? 0);
      let left = netting;
      for (const clawback of open) {
        const take = Math.min(left, clawback.outstanding);
        if (take <= 0) continue;
        await post(
          'netting',
          `${cardName}: ${formatMoney(fromCents(take))} of its payout set against what you owed back`,
          move(take, payable, receivable),
          clawback.id,
        );
        if (take === clawback.outstanding) {
          await tx
            .update(clawbacks)
            .set({ status: 'settled', closedAt: now })
            .where(eq(clawbacks.id, clawback.id));
        }
        left -= take;
      }
      if (target.paid > netting) {
        await post(
          'payment_sent',
          `Paid to ${payee}`,
          move(target.paid - netting, payable, paidOutAccount(method?.type ?? null)),
        );
      }
    }
  }
  return true;
}
