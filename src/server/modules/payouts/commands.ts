import { and, asc, eq, inArray, isNull, lt, lte, ne, notExists, or, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { PRODUCT_NAME } from '../../../shared/brand';
import {
  achReturnText,
  automaticRailOf,
  type CreateDisbursementsResult,
  type Disbursement,
  RAILS,
  type RailName,
} from '../../../shared/disbursements';
import { onTheWayAccount, paidOutAccount } from '../../../shared/ledger';
import { fromCents, toCents } from '../../../shared/money';
import type { PartnerPayout } from '../../../shared/partner-api';
import { isPayable, type MarkSentBatch, type MarkSentResult } from '../../../shared/payouts';
import { can, STAFF_ROLES } from '../../../shared/staff-roles';
import type { Account } from '../../common/account';
import { type AuditActor, recordAudit, SYSTEM_ACTOR } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError } from '../../common/http-error';
import type { Db } from '../../db/client';
import {
  achBatches,
  admins,
  disbursementCards,
  disbursements,
  jobRuns,
  paymentMethods,
  payoutRails,
  transactions,
} from '../../db/schema';
import { queueMail } from '../../mail/queue';
import {
  CARD_TOPICS,
  holdRulesOf,
  lockCardsForPayout,
  markCardsConfirmed,
  markCardsFailed,
  markCardsSubmitted,
  markPayoutsSent,
  payoutBlocks,
  recordPayoutQueued,
} from '../cards';
import { lockSeller, postEntry, sentFor, toSendFor } from '../ledger';
import { queueWebhookEvent } from '../webhooks';
import { type AchEntry, achFile, traceOf } from './ach';
import { broadcast, type EvmChain, evmChain, gasFor, unitsOf, walletFunds } from './evm';
import { faultAt } from './faults';
import { disbursementsByIds, railConfigured } from './rails';

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

const wrongState = (status: string, wanted: string) =>
  new HttpError(
    409,
    `This payout is ${status}: only a ${wanted} payout can be changed so`,
    undefined,
    {
      code: 'wrong_state',
    },
  );

/** The topics a payout's change touches: its seller's cards and figures, and staff's lists. */
const payoutChanged = (userIds: Iterable<string>) => {
  const users = [...new Set(userIds)];
  return users.length > 0 ? [change([...users, STAFF], CARD_TOPICS)] : [];
};

/**
 * Turns a rail's automatic payout on or off (issue 40, item 3): owners and finance, audited. A
 * rail without its env is 409 `rail_not_configured`; the manual rail has nothing to turn on.
 */
export async function setAutoPayout(
  context: CommandContext,
  actor: Account,
  rail: RailName,
  autoPayout: boolean,
): Promise<Outcome<void>> {
  const info = RAILS.find((r) => r.rail === rail)!;
  if (info.kind === 'manual') {
    throw new HttpError(
      409,
      'The manual rail is paid by staff: it has no automatic payout',
      undefined,
      {
        code: 'manual_rail',
      },
    );
  }
  if (!railConfigured(context.config, rail)) {
    throw new HttpError(
      409,
      'This rail is not configured: set its environment variables and restart',
      undefined,
      { code: 'rail_not_configured' },
    );
  }
  await context.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ autoPayout: payoutRails.autoPayout })
      .from(payoutRails)
      .where(eq(payoutRails.rail, rail))
      .for('update');
    await tx
      .insert(payoutRails)
      .values({ rail, autoPayout })
      .onConflictDoUpdate({ target: payoutRails.rail, set: { autoPayout, updatedAt: sql`now()` } });
    if ((before?.autoPayout ?? false) !== autoPayout) {
      await recordAudit(tx, actor, {
        entityType: 'payout_rail',
        entityId: null,
        action: 'auto_payout',
        changes: {
          rail: { from: null, to: rail },
          autoPayout: { from: !autoPayout, to: autoPayout },
        },
      });
    }
  });
  return { value: undefined, changed: [change([STAFF], ['queue'])] };
}

/** The payment type of each card's method (the rail follows it). */
async function paymentTypesOf(tx: Db, methodIds: string[]) {
  if (methodIds.length === 0) return new Map<string, string>();
  const rows = await tx
    .select({ id: paymentMethods.id, type: paymentMethods.type })
    .from(paymentMethods)
    .where(inArray(paymentMethods.id, methodIds));
  return new Map(rows.map((r) => [r.id, r.type]));
}

/**
 * Of these cards, those already in an open payout (queued, submitted, confirmed); with
 * `automaticOnly`, on an automatic rail (what mark-sent must not pay again).
 */
async function inOpenPayout(tx: Db, ids: string[], automaticOnly = false) {
  if (ids.length === 0) return new Set<string>();
  const rows = await tx
    .select({ id: disbursementCards.transactionId })
    .from(disbursementCards)
    .innerJoin(disbursements, eq(disbursements.id, disbursementCards.disbursementId))
    .where(
      and(
        inArray(disbursementCards.transactionId, ids),
        eq(disbursementCards.active, true),
        automaticOnly ? ne(disbursements.rail, 'manual') : undefined,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** A payout's idempotency key for one attempt, passed to its rail: 15 characters (ACH's id). */
const keyOf = (id: string, attempt: number) =>
  `${id.replace(/-/g, '').slice(0, 12)}${String(attempt % 1000).padStart(3, '0')}`;

/**
 * Queues payouts for cards (issue 40): each card still waiting for payment, not held and not in a
 * payout already, joins one payout per seller and rail, for what the books owe for it less its
 * share of what the seller owes back. The rest are refused with the reason. The cards are locked
 * in id order, so two requests (or a request and the automatic queue) naming the same card wait
 * for each other and the second finds it in a payout; the unique index on open cards is the last
 * guard.
 */
export async function createDisbursements(
  context: CommandContext,
  actor: AuditActor,
  transactionIds: string[],
): Promise<Outcome<CreateDisbursementsResult>> {
  return context.db.transaction(async (tx) => {
    const ids = [...new Set(transactionIds)];
    const cards = await lockCardsForPayout(tx, ids);
    const byId = new Map(cards.map((c) => [c.id, c]));
    // One statement at a time: a transaction's connection runs one query at once.
    const blocks = await payoutBlocks(tx, ids, holdRulesOf(context));
    const open = await inOpenPayout(tx, ids);
    const types = await paymentTypesOf(
      tx,
      cards.map((c) => c.paymentMethodId).filter((m): m is string => m !== null),
    );
    const result: CreateDisbursementsResult = { disbursements: [], refused: [] };
    const groups = new Map<string, typeof cards>();
    for (const id of ids) {
      const card = byId.get(id);
      if (!card || !isPayable(card) || card.owed <= 0) {
        result.refused.push({
          transactionId: id,
          reason: 'not_payable',
          message: card ? 'The card is not waiting for payment' : 'No such transaction',
        });
        continue;
      }
      if (open.has(id)) {
        result.refused.push({
          transactionId: id,
          reason: 'in_payout',
          message: 'The card is already in a payout',
        });
        continue;
      }
      const block = blocks.get(id);
      if (block) {
        const until = block.extra?.until as string | undefined;
        result.refused.push({
          transactionId: id,
          reason: 'held',
          message: block.message,
          ...(until ? { until } : {}),
        });
        continue;
      }
      const type = card.paymentMethodId ? (types.get(card.paymentMethodId) ?? null) : null;
      const rail = automaticRailOf(type);
      if (!rail || !railConfigured(context.config, rail.rail)) {
        result.refused.push({
          transactionId: id,
          reason: 'not_payable',
          message: 'This payment method is paid by hand: mark it sent from the payouts list',
        });
        continue;
      }
      const key = `${card.userId}|${rail.rail}|${type}|${card.paymentMethodId}`;
      groups.set(key, [...(groups.get(key) ?? []), card]);
    }
    const created: string[] = [];
    for (const [key, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      const [userId, rail, type, methodId] = key.split('|') as [string, RailName, string, string];
      await lockSeller(tx, userId);
      const toSend = await toSendFor(tx, userId);
      const amount = group.reduce((sum, c) => sum + (toSend.get(c.id)?.net ?? c.owed), 0);
      const id = crypto.randomUUID();
      await tx.insert(disbursements).values({
        id,
        userId,
        rail,
        paymentType: type,
        paymentMethodId: methodId,
        amount,
        status: 'queued',
        idempotencyKey: keyOf(id, 1),
        attempts: 0,
        createdById: actor.kind === 'system' ? null : actor.id,
        dueAt: new Date(context.now()),
      });
      await tx
        .insert(disbursementCards)
        .values(group.map((c) => ({ disbursementId: id, transactionId: c.id, owed: c.owed })));
      await recordPayoutQueued(
        tx,
        actor,
        group.map((c) => c.id),
        { id, rail },
      );
      await recordAudit(tx, actor, {
        entityType: 'disbursement',
        entityId: id,
        action: 'queued',
        changes: { amount: { from: null, to: fromCents(amount) }, rail: { from: null, to: rail } },
      });
      await queuePayoutEvent(context, tx, userId, id);
      created.push(id);
    }
    result.disbursements = await disbursementsByIds(tx, created, context.config);
    return {
      value: result,
      changed: payoutChanged([...groups.keys()].map((k) => k.split('|')[0]!)),
    };
  });
}

/**
 * The seller's webhooks hear of a payout's new state (`payout.updated`, issue 42): queued in the
 * outbox in the same transaction as the change, the payout as it now stands (decision 147).
 */
async function queuePayoutEvent(context: CommandContext, tx: Db, userId: string, id: string) {
  await queueWebhookEvent(
    tx,
    userId,
    'payout.updated',
    async (): Promise<PartnerPayout> => {
      const [payout] = await disbursementsByIds(tx, [id]);
      return {
        id,
        rail: payout!.rail,
        amount: payout!.amount,
        status: payout!.status,
        reference: payout!.reference,
        failureReason: payout!.status === 'failed' ? payout!.lastError : null,
        cardIds: payout!.transactionIds,
        createdAt: payout!.createdAt,
        submittedAt: payout!.submittedAt,
        confirmedAt: payout!.confirmedAt,
      };
    },
    context.now(),
  );
}

/** A payout locked for a change of its state; 404 when there is none, 409 unless `wanted`. */
async function lockDisbursement(tx: Db, id: string, wanted: string) {
  const [row] = await tx.select().from(disbursements).where(eq(disbursements.id, id)).for('update');
  if (!row) throw new HttpError(404, 'Payout not found');
  if (row.status !== wanted) throw wrongState(row.status, wanted);
  return row;
}

/** Whether a payout's cards count as in it (a payout that will not send frees them). */
const setCardsActive = (tx: Db, id: string, active: boolean) =>
  tx.update(disbursementCards).set({ active }).where(eq(disbursementCards.disbursementId, id));

const cardIdsOf = async (tx: Db, id: string, active?: boolean) =>
  (
    await tx
      .select({ id: disbursementCards.transactionId })
      .from(disbursementCards)
      .where(
        and(
          eq(disbursementCards.disbursementId, id),
          active === undefined ? undefined : eq(disbursementCards.active, active),
        ),
      )
      .orderBy(asc(disbursementCards.transactionId))
  ).map((r) => r.id);

/** The end of a staff member's move of one payout: audited, told to the seller, read back. */
async function staffMoved(
  context: CommandContext,
  tx: Db,
  actor: Account,
  row: { id: string; userId: string },
  action: string,
  status: { from: string; to: string },
): Promise<Outcome<Disbursement>> {
  await recordAudit(tx, actor, {
    entityType: 'disbursement',
    entityId: row.id,
    action,
    changes: { status },
  });
  await queuePayoutEvent(context, tx, row.userId, row.id);
  const [value] = await disbursementsByIds(tx, [row.id], context.config);
  return { value: value!, changed: payoutChanged([row.userId]) };
}

/** Cancels a queued payout: its cards may be paid again (by hand, or in a new payout). */
export async function cancelDisbursement(
  context: CommandContext,
  actor: Account,
  id: string,
): Promise<Outcome<Disbursement>> {
  return context.db.transaction(async (tx) => {
    const row = await lockDisbursement(tx, id, 'queued');
    await tx
      .update(disbursements)
      .set({ status: 'cancelled', updatedAt: sql`now()` })
      .where(eq(disbursements.id, id));
    await setCardsActive(tx, id, false);
    return staffMoved(context, tx, actor, row, 'cancelled', { from: 'queued', to: 'cancelled' });
  });
}

/**
 * Queues a failed payout again, as a new attempt with its own idempotency key: its cards must
 * still wait for payment and be in no other payout (409 `not_payable` otherwise).
 */
export async function retryDisbursement(
  context: CommandContext,
  actor: Account,
  id: string,
): Promise<Outcome<Disbursement>> {
  return context.db.transaction(async (tx) => {
    const row = await lockDisbursement(tx, id, 'failed');
    const ids = await cardIdsOf(tx, id);
    const cards = await lockCardsForPayout(tx, ids);
    const open = await inOpenPayout(tx, ids);
    if (cards.length === 0 || cards.some((c) => !isPayable(c) || c.owed <= 0 || open.has(c.id))) {
      throw new HttpError(
        409,
        'Its cards are no longer all waiting for payment: queue the ones that are in a new payout',
        undefined,
        { code: 'not_payable' },
      );
    }
    await lockSeller(tx, row.userId);
    const toSend = await toSendFor(tx, row.userId);
    const amount = cards.reduce((sum, c) => sum + (toSend.get(c.id)?.net ?? c.owed), 0);
    const attempt = row.attempts + 1;
    await tx
      .update(disbursements)
      .set({
        status: 'queued',
        amount,
        idempotencyKey: keyOf(id, attempt + 1),
        dueAt: new Date(context.now()),
        reference: null,
        referenceUrl: null,
        achBatchId: null,
        chainNonce: null,
        chainTxHash: null,
        chainRawTx: null,
        updatedAt: sql`now()`,
      })
      .where(eq(disbursements.id, id));
    await setCardsActive(tx, id, true);
    await recordPayoutQueued(tx, actor, ids, { id, rail: row.rail });
    return staffMoved(context, tx, actor, row, 'retried', { from: 'failed', to: 'queued' });
  });
}

type DisbursementRow = typeof disbursements.$inferSelect;

/** The ledger's key for a transition of one attempt of a payout. */
const entryKey = (row: DisbursementRow, step: string) =>
  `disbursement:${row.id}:${row.attempts}:${step}`;

/**
 * A payout leaves through its rail (inside the caller's transaction, the payout locked): its cards
 * become Payment Sent (the card's own command, which posts what each card sends, netting
 * included), the amount sent is what they posted, and it moves from money out to on the way
 * (decision 120). A payout none of whose cards is still payable fails instead. Answers the
 * amount sent in cents, or null when it failed.
 */
export async function submitDisbursement(
  context: CommandContext,
  tx: Db,
  row: DisbursementRow,
  reference: string | null,
  extra: Partial<DisbursementRow> = {},
): Promise<number | null> {
  const ids = await cardIdsOf(tx, row.id, true);
  const sent = await markCardsSubmitted(context, tx, SYSTEM_ACTOR, ids, reference);
  const attempt = { ...row, attempts: row.attempts + 1 };
  if (sent.length === 0) {
    await failDisbursement(context, tx, attempt, 'Its cards were paid or changed another way');
    return null;
  }
  const amount = [
    ...(
      await sentFor(
        tx,
        sent.map((c) => c.id),
      )
    ).values(),
  ].reduce((a, b) => a + b, 0);
  const sentIds = new Set(sent.map((c) => c.id));
  const dropped = ids.filter((i) => !sentIds.has(i));
  if (dropped.length > 0) {
    await tx
      .update(disbursementCards)
      .set({ active: false })
      .where(
        and(
          eq(disbursementCards.disbursementId, row.id),
          inArray(disbursementCards.transactionId, dropped),
        ),
      );
  }
  const now = new Date(context.now());
  await tx
    .update(disbursements)
    .set({
      ...extra,
      status: 'submitted',
      amount,
      reference,
      attempts: attempt.attempts,
      submittedAt: now,
      lastError: null,
      updatedAt: sql`now()`,
    })
    .where(eq(disbursements.id, row.id));
  await postEntry(tx, SYSTEM_ACTOR, {
    at: now,
    kind: 'payout_submitted',
    userId: row.userId,
    disbursementId: row.id,
    memo: `Payout ${fromCents(amount)} sent through the ${row.rail} rail${reference ? ` (${reference})` : ''}`,
    idempotencyKey: entryKey(attempt, 'submitted'),
    postings: [
      { account: paidOutAccount(row.paymentType), amount },
      { account: onTheWayAccount(row.rail), userId: row.userId, amount: -amount },
    ],
  });
  await queuePayoutEvent(context, tx, row.userId, row.id);
  return amount;
}

/** A submitted payout arrived: confirmed, its cards Payment Confirmed, off the way into money out. */
export async function confirmDisbursement(context: CommandContext, tx: Db, row: DisbursementRow) {
  if (row.status !== 'submitted') return false;
  const now = new Date(context.now());
  await tx
    .update(disbursements)
    .set({ status: 'confirmed', confirmedAt: now, updatedAt: sql`now()` })
    .where(eq(disbursements.id, row.id));
  await markCardsConfirmed(context, tx, SYSTEM_ACTOR, await cardIdsOf(tx, row.id, true));
  await postEntry(tx, SYSTEM_ACTOR, {
    at: now,
    kind: 'payout_confirmed',
    userId: row.userId,
    disbursementId: row.id,
    memo: `Payout ${fromCents(row.amount)} confirmed${row.reference ? ` (${row.reference})` : ''}`,
    idempotencyKey: entryKey(row, 'confirmed'),
    postings: [
      { account: onTheWayAccount(row.rail), userId: row.userId, amount: row.amount },
      { account: paidOutAccount(row.paymentType), amount: -row.amount },
    ],
  });
  await queuePayoutEvent(context, tx, row.userId, row.id);
  return true;
}

/**
 * A payout failed (reverted, dropped, returned, or nothing left to pay): failed with the reason,
 * its cards back to Payment Pending (their payment reversed by their own command) and released,
 * so they may be paid again; a submitted one comes off the way.
 */
export async function failDisbursement(
  context: CommandContext,
  tx: Db,
  row: DisbursementRow,
  reason: string,
) {
  const now = new Date(context.now());
  const ids = await cardIdsOf(tx, row.id, true);
  await tx
    .update(disbursements)
    .set({
      status: 'failed',
      attempts: row.attempts,
      lastError: reason.slice(0, 500),
      failedAt: now,
      updatedAt: sql`now()`,
    })
    .where(eq(disbursements.id, row.id));
  await setCardsActive(tx, row.id, false);
  await markCardsFailed(context, tx, SYSTEM_ACTOR, ids, reason);
  await queuePayoutEvent(context, tx, row.userId, row.id);
  if (row.status === 'submitted' && row.amount > 0) {
    await postEntry(tx, SYSTEM_ACTOR, {
      at: now,
      kind: 'payout_failed',
      userId: row.userId,
      disbursementId: row.id,
      memo: `Payout ${fromCents(row.amount)} failed: ${reason}`,
      idempotencyKey: entryKey(row, 'failed'),
      postings: [
        { account: onTheWayAccount(row.rail), userId: row.userId, amount: row.amount },
        { account: paidOutAccount(row.paymentType), amount: -row.amount },
      ],
    });
  }
}

/**
 * Marks a batch paid by hand (decision 052) and records what left as payouts on the manual rail
 * (issue 40): one confirmed payout per seller, with the reference staff typed. A card in an open
 * automatic payout is skipped (it is being paid already): marking it sent too would pay it twice.
 */
export async function markSentManually(
  context: CommandContext,
  actor: Account,
  { items, payoutReference }: MarkSentBatch,
): Promise<Outcome<MarkSentResult>> {
  return context.db.transaction(async (tx) => {
    const ids = [...new Set(items.map((i) => i.id))].sort();
    await lockCardsForPayout(tx, ids);
    const open = await inOpenPayout(tx, ids, true);
    const inner = await markPayoutsSent(context, tx, actor, {
      items: items.filter((i) => !open.has(i.id)),
      payoutReference,
    });
    const result = inner.value;
    for (const item of items) {
      if (open.has(item.id)) {
        result.skipped.push({
          id: item.id,
          reason: 'not_payable',
          message: 'The card is already in a payout',
        });
      }
    }
    if (result.sent.length > 0) {
      const sentIds = result.sent.map((s) => s.id);
      const owners = await tx
        .select({
          id: transactions.id,
          userId: transactions.userId,
          methodId: transactions.paymentMethodId,
        })
        .from(transactions)
        .where(inArray(transactions.id, sentIds))
        .orderBy(asc(transactions.id));
      const types = await paymentTypesOf(
        tx,
        owners.map((o) => o.methodId).filter((m): m is string => m !== null),
      );
      const amounts = new Map(result.sent.map((s) => [s.id, toCents(s.amount)]));
      const groups = new Map<string, typeof owners>();
      for (const o of owners) {
        const key = `${o.userId}|${o.methodId ?? ''}`;
        groups.set(key, [...(groups.get(key) ?? []), o]);
      }
      const now = new Date(context.now());
      for (const group of groups.values()) {
        const first = group[0]!;
        const id = crypto.randomUUID();
        await tx.insert(disbursements).values({
          id,
          userId: first.userId,
          rail: 'manual',
          paymentType: first.methodId ? (types.get(first.methodId) ?? null) : null,
          paymentMethodId: first.methodId,
          amount: group.reduce((sum, o) => sum + (amounts.get(o.id) ?? 0), 0),
          status: 'confirmed',
          idempotencyKey: keyOf(id, 1),
          reference: payoutReference ?? null,
          attempts: 1,
          createdById: actor.id,
          createdAt: now,
          submittedAt: now,
          confirmedAt: now,
        });
        await tx.insert(disbursementCards).values(
          group.map((o) => ({
            disbursementId: id,
            transactionId: o.id,
            owed: amounts.get(o.id) ?? 0,
          })),
        );
        await queuePayoutEvent(context, tx, first.userId, id);
      }
    }
    return { value: result, changed: inner.changed };
  });
}

/**
 * The automatic queue (issue 40, item 3): on each rail whose automatic payout is on, every card
 * waiting for payment to one of its types, not held, and never in a payout (a failed or cancelled
 * one is retried by staff, not in a loop), is queued, up to `limit` at a time. Held cards wait
 * for their hold to end and are queued then. Cards other instances are queuing are skipped.
 */
export async function queueAutomaticPayouts(
  context: CommandContext,
  limit = 200,
): Promise<Outcome<number>> {
  const on = await context.db
    .select({ rail: payoutRails.rail })
    .from(payoutRails)
    .where(eq(payoutRails.autoPayout, true));
  const types = RAILS.filter(
    (r) =>
      r.kind !== 'manual' &&
      on.some((o) => o.rail === r.rail) &&
      railConfigured(context.config, r.rail),
  ).flatMap((r) => [...r.paymentTypes] as string[]);
  if (types.length === 0) return { value: 0, changed: [] };
  const candidates = await context.db
    .select({ id: transactions.id })
    .from(transactions)
    .innerJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .where(
      and(
        inArray(transactions.status, ['processing', 'completed']),
        eq(transactions.paymentStatus, 'pending'),
        sql`${transactions.offerStatus} is distinct from 'pending'`,
        inArray(paymentMethods.type, types),
        notExists(
          context.db
            .select({ one: sql`1` })
            .from(disbursementCards)
            .where(eq(disbursementCards.transactionId, transactions.id)),
        ),
      ),
    )
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .limit(limit);
  if (candidates.length === 0) return { value: 0, changed: [] };
  const outcome = await createDisbursements(
    context,
    SYSTEM_ACTOR,
    candidates.map((c) => c.id),
  );
  return {
    value: outcome.value.disbursements.length,
    changed: outcome.changed,
  };
}

/**
 * Claims queued payouts of one rail that are due, for this worker: FOR UPDATE SKIP LOCKED, so
 * workers on other instances take other payouts (decision 121). Inside the caller's transaction.
 */
export async function claimDuePayouts(tx: Db, rail: RailName, now: number, limit: number) {
  return tx
    .select()
    .from(disbursements)
    .where(
      and(
        eq(disbursements.status, 'queued'),
        eq(disbursements.rail, rail),
        lte(disbursements.dueAt, new Date(now)),
        isNull(disbursements.achBatchId),
      ),
    )
    .orderBy(asc(disbursements.dueAt), asc(disbursements.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The ACH rail's settings, or 409 `rail_not_configured`. */
function achConfigOf(context: CommandContext) {
  const ach = context.config.payouts.ach;
  if (!ach) {
    throw new HttpError(
      409,
      'The ACH rail is not configured: bank transfers are paid by hand',
      undefined,
      {
        code: 'rail_not_configured',
      },
    );
  }
  return ach;
}

/**
 * Finance builds an ACH batch (issue 40, decision 122) from queued bank payouts (those named, or
 * every queued one, oldest first, up to 1,000): each due one whose cards are not held is submitted
 * (its cards Payment Sent, its amount on the way) with a trace number as its reference and its
 * idempotency key as the entry's identification number, and the NACHA file is kept with the
 * batch. Payouts another request is batching are skipped (SKIP LOCKED), so two at once never put
 * one payout in two files. A held payout stays queued; one without bank details fails.
 */
export async function createAchBatch(
  context: CommandContext,
  actor: Account,
  disbursementIds?: string[],
): Promise<Outcome<{ id: string; entries: number; total: string }>> {
  const ach = achConfigOf(context);
  return context.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(disbursements)
      .where(
        and(
          eq(disbursements.status, 'queued'),
          eq(disbursements.rail, 'ach'),
          lte(disbursements.dueAt, new Date(context.now())),
          disbursementIds ? inArray(disbursements.id, disbursementIds) : undefined,
        ),
      )
      .orderBy(asc(disbursements.createdAt), asc(disbursements.id))
      .limit(1000)
      .for('update', { skipLocked: true });
    if (rows.length === 0) {
      throw new HttpError(409, 'No queued bank payouts to put in a batch', undefined, {
        code: 'nothing_to_batch',
      });
    }
    const batchId = crypto.randomUUID();
    const at = new Date(context.now());
    const entries: AchEntry[] = [];
    const users = new Set<string>();
    for (const row of rows) {
      const ids = await cardIdsOf(tx, row.id, true);
      const blocks = await payoutBlocks(tx, ids, holdRulesOf(context));
      if (blocks.size > 0) continue;
      users.add(row.userId);
      const [method] = row.paymentMethodId
        ? await tx
            .select({
              accountName: paymentMethods.accountName,
              accountNumber: paymentMethods.accountNumber,
              routingNumber: paymentMethods.routingNumber,
            })
            .from(paymentMethods)
            .where(eq(paymentMethods.id, row.paymentMethodId))
        : [];
      if (!method?.accountNumber || !/^\d{9}$/.test(method.routingNumber ?? '')) {
        await failDisbursement(
          context,
          tx,
          { ...row, attempts: row.attempts + 1 },
          'The bank details are incomplete: add the routing and account numbers',
        );
        continue;
      }
      const [{ seq }] = (
        await tx.execute<{ seq: string }>(sql`select nextval('ach_trace_seq')::text as seq`)
      ).rows as [{ seq: string }];
      const trace = traceOf(ach, Number(seq));
      const amount = await submitDisbursement(context, tx, row, trace, { achBatchId: batchId });
      if (amount === null) continue;
      entries.push({
        routing: method.routingNumber!,
        account: method.accountNumber,
        amount,
        name: method.accountName,
        idNumber: row.idempotencyKey,
        trace,
      });
    }
    const total = entries.reduce((sum, e) => sum + e.amount, 0);
    const fileText =
      entries.length > 0
        ? await achFile(ach, batchId.replace(/-/g, '').slice(0, 8), at, entries)
        : '';
    await tx.insert(achBatches).values({
      id: batchId,
      entries: entries.length,
      total,
      fileText,
      createdById: actor.id,
      createdAt: at,
    });
    await recordAudit(tx, actor, {
      entityType: 'ach_batch',
      entityId: batchId,
      action: 'created',
      changes: {
        entries: { from: null, to: entries.length },
        total: { from: null, to: fromCents(total) },
      },
    });
    return {
      value: { id: batchId, entries: entries.length, total: fromCents(total) },
      changed: payoutChanged(users),
    };
  });
}

/** The bank settled a batch: each of its submitted payouts is confirmed (409 `wrong_state` twice). */
export async function settleAchBatch(
  context: CommandContext,
  actor: Account,
  batchId: string,
): Promise<Outcome<{ id: string; confirmed: number }>> {
  return context.db.transaction(async (tx) => {
    const [batch] = await tx
      .select()
      .from(achBatches)
      .where(eq(achBatches.id, batchId))
      .for('update');
    if (!batch) throw new HttpError(404, 'ACH batch not found');
    if (batch.settledAt) {
      throw new HttpError(409, 'This batch is already settled', undefined, { code: 'wrong_state' });
    }
    const rows = await tx
      .select()
      .from(disbursements)
      .where(and(eq(disbursements.achBatchId, batchId), eq(disbursements.status, 'submitted')))
      .orderBy(asc(disbursements.id))
      .for('update');
    for (const row of rows) await confirmDisbursement(context, tx, row);
    await tx
      .update(achBatches)
      .set({ settledAt: new Date(context.now()) })
      .where(eq(achBatches.id, batchId));
    await recordAudit(tx, actor, {
      entityType: 'ach_batch',
      entityId: batchId,
      action: 'settled',
      changes: { confirmed: { from: null, to: rows.length } },
    });
    return {
      value: { id: batchId, confirmed: rows.length },
      changed: payoutChanged(rows.map((r) => r.userId)),
    };
  });
}

/**
 * A bank's return file: each returned entry (found by its trace number) fails its payout with the
 * reason in words ("R03: no account or unable to locate account"), its cards back to Payment
 * Pending and the seller asked to fix their method. A payout already failed is left alone, so the
 * same file twice returns nothing twice.
 */
export async function applyAchReturns(
  context: CommandContext,
  actor: Account,
  returns: { code: string; trace: string }[],
): Promise<Outcome<{ returned: { disbursementId: string; code: string }[] }>> {
  return context.db.transaction(async (tx) => {
    const returned: { disbursementId: string; code: string }[] = [];
    const users = new Set<string>();
    for (const r of returns) {
      const [row] = await tx
        .select()
        .from(disbursements)
        .where(
          and(
            eq(disbursements.rail, 'ach'),
            eq(disbursements.reference, r.trace),
            inArray(disbursements.status, ['submitted', 'confirmed']),
          ),
        )
        .for('update');
      if (!row) continue;
      await failDisbursement(context, tx, row, achReturnText(r.code));
      await recordAudit(tx, actor, {
        entityType: 'disbursement',
        entityId: row.id,
        action: 'returned',
        changes: { status: { from: row.status, to: 'failed' }, code: { from: null, to: r.code } },
      });
      returned.push({ disbursementId: row.id, code: r.code });
      users.add(row.userId);
    }
    return { value: { returned }, changed: payoutChanged(users) };
  });
}

/**
 * One alert per outage or shortage across every instance (decision 153): a `job_runs` row named
 * for it stands while it lasts. The instance whose insert makes the row sends the alert; the
 * others, and every later pass, find it there. It is removed when the node answers again (or no
 * queued payout still waits for funds), so the next outage is told again.
 */
const alertName = (what: 'rpc' | 'funds') => `payout-alert:usdt_bep20:${what}`;

async function claimAlert(db: Db, what: 'rpc' | 'funds', now: number) {
  const made = await db
    .insert(jobRuns)
    .values({ name: alertName(what), lastRunAt: new Date(now) })
    .onConflictDoNothing()
    .returning({ name: jobRuns.name });
  return made.length === 1;
}

async function alertStanding(db: Db, what: 'rpc' | 'funds') {
  const [row] = await db
    .select({ name: jobRuns.name })
    .from(jobRuns)
    .where(eq(jobRuns.name, alertName(what)));
  return row !== undefined;
}

const endAlert = (db: Db, what: 'rpc' | 'funds') =>
  db.delete(jobRuns).where(eq(jobRuns.name, alertName(what)));

/**
 * Tells finance the USDT rail waits: an email to every active staff member who holds payouts
 * (owners, finance), queued in the outbox, and `alert` (the log line). Once per outage.
 */
async function raiseAlert(
  context: CommandContext,
  what: 'rpc' | 'funds',
  message: string,
  alert: (what: 'rpc' | 'funds', message: string) => void,
) {
  // The row and the emails in one commit: a crash between them cannot leave an alert unsent.
  const claimed = await context.db.transaction(async (tx) => {
    if (!(await claimAlert(tx, what, context.now()))) return false;
    const payers = STAFF_ROLES.filter((role) => can(role, 'payouts'));
    const staff = await tx
      .select({ email: admins.email })
      .from(admins)
      .where(and(eq(admins.active, true), inArray(admins.role, payers)));
    const subject =
      what === 'rpc'
        ? `${PRODUCT_NAME}: USDT payouts wait, the chain's node does not answer`
        : `${PRODUCT_NAME}: USDT payouts wait, the hot wallet is short`;
    const lines = [
      message,
      what === 'rpc'
        ? 'Nothing fails meanwhile: the payouts stay queued and go out by themselves once the node (PAYOUT_EVM_RPC_URL) answers again.'
        : 'Nothing fails meanwhile: fund the hot wallet with the token and with gas (docs/operations.md) and the payouts go out by themselves.',
      'This is the only email about it until the rail has recovered.',
    ];
    for (const member of staff) {
      await queueMail(tx, context.now(), member.email, 'staff-alert', {
        subject,
        lines,
        url: `${context.config.appUrl}/admin?tab=payouts`,
      });
    }
    return true;
  });
  if (!claimed) return;
  alert(what, message);
}

/** A queued USDT payout's wait for the hot wallet's funds (its `last_error`). */
const SHORT_OF_FUNDS = 'Waiting: the hot wallet is short of token or gas';

/** How long a USDT payout waits before the worker tries again when the node or funds are short. */
export const EVM_WAIT_MS = 30 * 1000;

/**
 * A send's lease on a signed transfer (`chain_sent_at`): no other pass, here or on another
 * instance, starts a send of it within this time, so that no two sends of the same bytes reach the
 * node together (a node sees a send as it starts). One worker tick, so that a transfer the node
 * lost goes again at the next pass: every later nonce waits for it (decision 123).
 */
export const SEND_LEASE_MS = 5 * 1000;

/**
 * The USDT rail's worker (issue 40, decision 123), one pass: first each submitted payout is
 * looked up by its hash (confirmed after enough blocks, failed when reverted or dropped, its
 * stored raw transaction sent again when the node does not have it), then up to `limit` due
 * queued payouts are paid, each in its own transaction: claimed (SKIP LOCKED), the nonce taken
 * under a database lock, the transfer signed, and the raw transaction, its hash and nonce stored
 * with the payout submitted (cards Payment Sent, money on the way), all committed **before** the
 * broadcast. A crash after the commit leaves a submitted payout the next pass finds by its hash
 * and sends again; never signed twice. The node down, or the wallet short of token or gas: the
 * payout waits, finance is alerted once across instances (decision 153), and while the node is
 * down a pass asks it one question only (no error loop). Answers how many changed.
 */
export async function payEvmPayouts(
  context: CommandContext,
  alert: (what: 'rpc' | 'funds', message: string) => void = () => {},
  limit = 20,
): Promise<Outcome<number>> {
  const config = context.config.payouts.evm;
  if (!config) return { value: 0, changed: [] };
  const chain = evmChain(config);
  const users = new Set<string>();
  let changedCount = 0;
  try {
    if (await alertStanding(context.db, 'rpc')) {
      // Down when last asked: one question, and nothing else until it answers.
      await chain.client.getBlockNumber();
      await endAlert(context.db, 'rpc');
    }
    changedCount += await watchSubmitted(context, chain, users);
    for (let i = 0; i < limit; i++) {
      const outcome = await payOne(context, chain, users, alert);
      if (outcome === 'none') break;
      if (outcome === 'waiting') break;
      changedCount += 1;
    }
    // The shortage is over once no queued payout still waits for funds (a payout that goes out
    // clears its wait); an instance that merely found nothing to claim does not end it.
    if (await alertStanding(context.db, 'funds')) {
      const [stillShort] = await context.db
        .select({ id: disbursements.id })
        .from(disbursements)
        .where(
          and(
            eq(disbursements.rail, 'usdt_bep20'),
            eq(disbursements.status, 'queued'),
            eq(disbursements.lastError, SHORT_OF_FUNDS),
          ),
        )
        .limit(1);
      if (!stillShort) await endAlert(context.db, 'funds');
    }
  } catch (error) {
    if (!isRpcError(error)) throw error;
    await raiseAlert(
      context,
      'rpc',
      `The USDT rail's node does not answer: payouts wait (${String((error as Error).message ?? error).split('\n')[0]})`,
      alert,
    );
  }
  return { value: changedCount, changed: payoutChanged(users) };
}

const isRpcError = (error: unknown) => {
  const name = (error as Error)?.name ?? '';
  return (
    /HttpRequestError|TimeoutError|RpcRequestError|FetchError|SocketClosedError/.test(name) ||
    /fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(String((error as Error)?.message ?? ''))
  );
};

/** The block each transfer was mined in, as this process saw it (saves a receipt per pass). */
const minedIn = new Map<string, bigint>();

/**
 * The submitted USDT payouts, each settled by what the chain says of its hash. The wallet's mined
 * count is read first: a transfer whose nonce it covers is either found by its receipt (mined) or
 * was replaced (dropped). Read the other way round, a transfer mined between the two questions
 * would look dropped, and its cards be paid again.
 */
async function watchSubmitted(context: CommandContext, chain: EvmChain, users: Set<string>) {
  const submitted = await context.db
    .select({
      id: disbursements.id,
      nonce: disbursements.chainNonce,
      hash: disbursements.chainTxHash,
      raw: disbursements.chainRawTx,
    })
    .from(disbursements)
    .where(and(eq(disbursements.rail, 'usdt_bep20'), eq(disbursements.status, 'submitted')))
    .orderBy(asc(disbursements.chainNonce));
  if (submitted.length === 0) return 0;
  const mined = await chain.client.getTransactionCount({
    address: chain.wallet,
    blockTag: 'latest',
  });
  const head = await chain.client.getBlockNumber();
  const enough = BigInt(chain.config.confirmations);
  let changed = 0;
  for (const { id, nonce, hash: stored, raw } of submitted) {
    if (!stored || !raw) continue;
    const hash = stored as Hex;
    if (nonce !== null && nonce >= mined) {
      // Not mined when counted: the node may never have had it (a crash before the broadcast,
      // a node restart): the stored raw transaction, as signed, once more.
      await sendAgain(context, chain, id, hash, raw as Hex);
      continue;
    }
    // Mined, and known to be short of its confirmations: nothing to ask or lock.
    const seen = minedIn.get(hash);
    if (seen !== undefined && head - seen + 1n < enough) {
      faultAt(context.config, 'confirming');
      continue;
    }
    const receipt = await chain.client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if ((error as Error).name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    });
    if (receipt && receipt.status !== 'reverted') {
      minedIn.set(hash, receipt.blockNumber);
      if (head - receipt.blockNumber + 1n < enough) {
        faultAt(context.config, 'confirming');
        continue;
      }
    }
    if (!receipt && nonce === null) {
      await sendAgain(context, chain, id, hash, raw as Hex);
      continue;
    }
    // A change of state: under the payout's lock, still submitted with this very transaction.
    const outcome = await context.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(disbursements)
        .where(and(eq(disbursements.id, id), eq(disbursements.status, 'submitted')))
        .for('update', { skipLocked: true });
      if (!row || row.chainTxHash !== hash) return false;
      minedIn.delete(hash);
      if (!receipt) {
        // Its nonce was used by another transaction: this one can never be mined.
        await failDisbursement(context, tx, row, 'The transfer was dropped from the chain');
        return true;
      }
      if (receipt.status === 'reverted') {
        await failDisbursement(context, tx, row, 'The transfer reverted on chain');
        return true;
      }
      return confirmDisbursement(context, tx, row);
    });
    if (outcome) {
      changed += 1;
      const [row] = await context.db
        .select({ userId: disbursements.userId })
        .from(disbursements)
        .where(eq(disbursements.id, id));
      if (row) users.add(row.userId);
    }
  }
  return changed;
}

/**
 * Sends a submitted payout's stored transaction again, if this pass wins its send lease: the
 * lease is taken in one statement, so of two instances' watchers (or a watcher and the worker
 * that signed it a moment ago) only one sends.
 */
async function sendAgain(
  context: CommandContext,
  chain: EvmChain,
  id: string,
  hash: Hex,
  raw: Hex,
) {
  const now = context.now();
  const leased = await context.db
    .update(disbursements)
    .set({ chainSentAt: new Date(now) })
    .where(
      and(
        eq(disbursements.id, id),
        eq(disbursements.status, 'submitted'),
        eq(disbursements.chainTxHash, hash),
        or(
          isNull(disbursements.chainSentAt),
          lt(disbursements.chainSentAt, new Date(now - SEND_LEASE_MS)),
        ),
      ),
    )
    .returning({ id: disbursements.id });
  if (leased.length > 0) await broadcast(chain, raw);
}

/**
 * Pays one due queued USDT payout: 'paid', 'waiting' (short of funds, down, or the node still
 * lacking an earlier transfer) or 'none'.
 */
async function payOne(
  context: CommandContext,
  chain: EvmChain,
  users: Set<string>,
  alert: (what: 'rpc' | 'funds', message: string) => void,
): Promise<'paid' | 'waiting' | 'none'> {
  const result = await context.db.transaction(async (tx) => {
    const [row] = await claimDuePayouts(tx, 'usdt_bep20', context.now(), 1);
    if (!row) return { state: 'none' as const };
    const later = new Date(context.now() + EVM_WAIT_MS);
    const ids = await cardIdsOf(tx, row.id, true);
    const blocks = await payoutBlocks(tx, ids, holdRulesOf(context));
    if (blocks.size > 0) {
      // A hold delays the payout, never fails it: due again when the hold ends.
      const until = [...blocks.values()]
        .map((b) => (b.extra?.until ? Date.parse(String(b.extra.until)) : context.now() + 3600_000))
        .reduce((a, b) => Math.max(a, b), context.now());
      await tx
        .update(disbursements)
        .set({ dueAt: new Date(until), lastError: blocks.values().next().value!.message })
        .where(eq(disbursements.id, row.id));
      return { state: 'held' as const };
    }
    const [method] = row.paymentMethodId
      ? await tx
          .select({ identifier: paymentMethods.identifier })
          .from(paymentMethods)
          .where(eq(paymentMethods.id, row.paymentMethodId))
      : [];
    if (!method?.identifier || !/^0x[0-9a-fA-F]{40}$/.test(method.identifier)) {
      await failDisbursement(
        context,
        tx,
        { ...row, attempts: row.attempts + 1 },
        'The wallet address is missing or not a BEP-20 address',
      );
      users.add(row.userId);
      return { state: 'paid' as const };
    }
    // What the cards send, by the rule submitting them posts (netting included).
    await lockSeller(tx, row.userId);
    const cards = (await lockCardsForPayout(tx, ids)).filter((c) => isPayable(c) && c.owed > 0);
    const toSend = await toSendFor(tx, row.userId);
    const cents = cards.reduce((sum, c) => sum + (toSend.get(c.id)?.net ?? c.owed), 0);
    const units = unitsOf(cents, chain.config.tokenDecimals);
    const gasPrice = await chain.client.getGasPrice();
    // The nonce, under a lock every instance takes: the next after the highest stored, or the
    // chain's count when it is ahead (a transfer made outside the app).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('payout-evm-nonce'))`);
    const [{ highest }] = (
      await tx.execute<{ highest: string | null }>(
        sql`select max(chain_nonce)::text as highest from disbursements where rail = 'usdt_bep20'`,
      )
    ).rows as [{ highest: string | null }];
    const pending = await chain.client.getTransactionCount({
      address: chain.wallet,
      blockTag: 'pending',
    });
    // In nonce order: a transfer is signed only once the node has every one signed before it. A
    // node holds one that arrives before its predecessor until the gap fills, and ganache may
    // then never mine it (ganache#4522). The one it lacks is sent again by the watcher.
    if (highest !== null && pending <= Number(highest)) return { state: 'behind' as const };
    const mined = await chain.client.getTransactionCount({
      address: chain.wallet,
      blockTag: 'latest',
    });
    // The funds, under the same lock: what this transfer needs on top of those signed and not yet
    // mined (another instance's, committed a moment ago, may not even be broadcast), so that two
    // workers never both spend the last of the wallet and one transfer reverts.
    const [{ cents: inFlightCents, count: inFlight }] = (
      await tx.execute<{ cents: string; count: string }>(
        sql`select coalesce(sum(amount), 0)::text as cents, count(*)::text as count
            from disbursements
            where rail = 'usdt_bep20' and status = 'submitted' and chain_nonce >= ${mined}`,
      )
    ).rows as [{ cents: string; count: string }];
    const funds = await walletFunds(chain);
    const tokenNeed = units + unitsOf(Number(inFlightCents), chain.config.tokenDecimals);
    const gasNeed = gasFor(gasPrice) * BigInt(Number(inFlight) + 1);
    if (funds.token < tokenNeed || funds.gas < gasNeed) {
      await tx
        .update(disbursements)
        .set({ dueAt: later, lastError: SHORT_OF_FUNDS })
        .where(eq(disbursements.id, row.id));
      return { state: 'short' as const };
    }
    const nonce = Math.max(highest === null ? 0 : Number(highest) + 1, pending);
    const { raw, hash } = await chain.sign(nonce, method.identifier as Hex, units, gasPrice);
    const amount = await submitDisbursement(context, tx, row, hash, {
      chainNonce: nonce,
      chainTxHash: hash,
      chainRawTx: raw,
      // Its send lease, taken with the signature: sent once this commits.
      chainSentAt: new Date(context.now()),
      referenceUrl: `${context.config.payouts.explorerTxUrl}${hash}`,
    });
    if (amount === null) return { state: 'paid' as const };
    if (amount !== cents) {
      throw new Error(`USDT payout ${row.id}: signed ${cents} cents, the books sent ${amount}`);
    }
    users.add(row.userId);
    // Signed, and stored in this transaction, not yet committed.
    faultAt(context.config, 'after-sign');
    return { state: 'broadcast' as const, raw };
  });
  if (result.state === 'none') return 'none';
  if (result.state === 'held') return 'paid';
  if (result.state === 'behind') return 'waiting';
  if (result.state === 'short') {
    await raiseAlert(
      context,
      'funds',
      'The USDT hot wallet is short of token or gas for the payouts queued: they wait',
      alert,
    );
    return 'waiting';
  }
  if (result.state === 'broadcast') {
    faultAt(context.config, 'before-broadcast');
    // After the commit: the stored raw transaction. A failure here is retried by the watcher.
    await broadcast(chain, result.raw).catch(() => {});
    faultAt(context.config, 'after-broadcast');
  }
  return 'paid';
}
