import { createHash } from 'node:crypto';
import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  CLEAN_HISTORY_DAYS,
  type InstantPolicy,
  type InstantRule,
} from '../../../shared/instant-decisions';
import { toCents } from '../../../shared/money';
import type { Account } from '../../common/account';
import { AUTO_ACTOR, type AuditChanges, auditCard, recordAudit } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError } from '../../common/http-error';
import type { Db } from '../../db/client';
import { clawbacks, instantDecisionPolicy, scamCheckRefusals, transactions } from '../../db/schema';
import { FRAUD_REASONS } from './account-standing';
import { lockCard } from './change';
import { decideCard } from './review';

const DAY_MS = 24 * 60 * 60 * 1000;

type PolicyRow = typeof instantDecisionPolicy.$inferSelect;
const toPolicy = (row: PolicyRow): InstantPolicy => ({
  enabled: row.enabled,
  minLevel: row.minLevel,
  minCompletedCards: row.minCompletedCards,
  maxCardValue: row.maxCardValue,
  maxDailyTotal: row.maxDailyTotal,
  brands: row.brands,
  sampleRate: Number(row.sampleRate),
});

/** The owner's policy (one row, made by migration 0029). */
export async function instantPolicy(db: Db): Promise<InstantPolicy> {
  const [row] = await db
    .select()
    .from(instantDecisionPolicy)
    .where(eq(instantDecisionPolicy.id, 1));
  return toPolicy(row!);
}

/** The owner sets the whole policy; audited with what changed. */
export async function setInstantPolicy(
  context: CommandContext,
  actor: Account,
  input: InstantPolicy,
): Promise<Outcome<InstantPolicy>> {
  return context.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(instantDecisionPolicy)
      .where(eq(instantDecisionPolicy.id, 1))
      .for('update');
    const before = toPolicy(row!);
    const next: InstantPolicy = { ...input, brands: [...new Set(input.brands)] };
    const changes: AuditChanges = {};
    for (const key of Object.keys(next) as (keyof InstantPolicy)[]) {
      if (JSON.stringify(before[key]) !== JSON.stringify(next[key])) {
        changes[key] = { from: before[key], to: next[key] };
      }
    }
    if (Object.keys(changes).length === 0) return { value: before, changed: [] };
    const [after] = await tx
      .update(instantDecisionPolicy)
      .set({
        enabled: next.enabled,
        minLevel: next.minLevel,
        minCompletedCards: next.minCompletedCards,
        maxCardValue: next.maxCardValue,
        maxDailyTotal: next.maxDailyTotal,
        brands: next.brands,
        sampleRate: String(next.sampleRate),
        updatedAt: new Date(context.now()),
      })
      .where(eq(instantDecisionPolicy.id, 1))
      .returning();
    await recordAudit(tx, actor, {
      entityType: 'instant_policy',
      entityId: null,
      action: 'update',
      changes,
    });
    return { value: toPolicy(after!), changed: [] };
  });
}

/**
 * Whether an instant decision is sampled for a person's after-review: a SHA-256 of the card's id
 * read as a fraction in [0, 1), below the sample rate. Uniform over random ids, and the same
 * answer for a card however often it is asked.
 */
export function isSampled(cardId: string, sampleRate: number): boolean {
  const fraction = createHash('sha256').update(cardId).digest().readUInt32BE(0) / 2 ** 32;
  return fraction < sampleRate;
}

/** The seller's record the rules read, all under the account's lock (the submission holds it). */
async function sellerRecord(tx: Db, userId: string, now: number) {
  const since = new Date(now - CLEAN_HISTORY_DAYS * DAY_MS);
  const [completed] = await tx
    .select({ n: count() })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.status, 'completed')));
  const [badCards] = await tx
    .select({ n: count() })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        sql`((${transactions.status} = 'rejected' and ${inArray(transactions.rejectionReason, FRAUD_REASONS)} and ${transactions.rejectedAt} > ${since})
          or (${transactions.appealStatus} = 'upheld' and ${transactions.appealDecidedAt} > ${since}))`,
      ),
    );
  const [takenBack] = await tx
    .select({ n: count() })
    .from(clawbacks)
    .where(and(eq(clawbacks.userId, userId), gt(clawbacks.createdAt, since)));
  const [refusals] = await tx
    .select({ n: count() })
    .from(scamCheckRefusals)
    .where(and(eq(scamCheckRefusals.userId, userId), gt(scamCheckRefusals.createdAt, since)));
  const [today] = await tx
    .select({
      total: sql<string>`coalesce(sum(${transactions.cardValue}), 0)::numeric(12,2)::text`,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        eq(transactions.decidedBy, 'auto'),
        gt(transactions.createdAt, new Date(now - DAY_MS)),
      ),
    );
  return {
    completed: completed!.n,
    cleanHistory: badCards!.n === 0 && takenBack!.n === 0,
    scamRefusals: refusals!.n,
    instantToday: toCents(today!.total),
  };
}

/**
 * The rules of the policy against a new card (decision 131): which held and which did not, in
 * INSTANT_RULES order. Read inside the submission's transaction, after its checks, while the
 * seller's row is locked: cards submitted at once are decided one after another, so the daily
 * total cannot be passed by a race.
 */
export async function instantRules(
  tx: Db,
  policy: InstantPolicy,
  card: typeof transactions.$inferSelect,
  seller: { verificationLevel: number },
  now: number,
): Promise<{ held: InstantRule[]; failed: InstantRule[] }> {
  const record = await sellerRecord(tx, card.userId, now);
  const value = toCents(card.cardValue);
  const listed = policy.brands.some((b) => b.trim().toLowerCase() === card.cardType.toLowerCase());
  const results: [InstantRule, boolean][] = [
    ['switched_on', policy.enabled],
    ['verification_level', seller.verificationLevel >= policy.minLevel],
    ['completed_cards', record.completed >= policy.minCompletedCards],
    ['clean_history', record.cleanHistory],
    ['card_value', value <= toCents(policy.maxCardValue)],
    ['brand_listed', listed],
    [
      'checks_clean',
      card.validationStatus === 'passed' && card.scamCheck === 'no' && record.scamRefusals === 0,
    ],
    ['daily_total', record.instantToday + value <= toCents(policy.maxDailyTotal)],
  ];
  return {
    held: results.filter(([, ok]) => ok).map(([rule]) => rule),
    failed: results.filter(([, ok]) => !ok).map(([rule]) => rule),
  };
}

/**
 * A new card, right after its checks, in its submission's transaction: approved at once at its
 * quote through the staff approval (decideCard) when every rule holds, with actor `auto` and the
 * rules in its audit row; else left pending with the rules it failed, for staff to read.
 */
export async function decideAtSubmission(
  context: CommandContext,
  tx: Db,
  cardId: string,
  seller: { verificationLevel: number },
) {
  const policy = await instantPolicy(tx);
  const card = await lockCard(tx, cardId);
  const now = context.now();
  const { held, failed } = await instantRules(tx, policy, card, seller, now);
  if (failed.length > 0) {
    // Not a change of the card's lifecycle: a note on the new card of why it waits.
    await tx
      .update(transactions)
      .set({ instantDecision: { refusedBecause: failed } })
      .where(eq(transactions.id, cardId));
    return { approved: false as const, changed: [] };
  }
  const sampled = isSampled(card.id, policy.sampleRate);
  const outcome = await decideCard(
    context,
    tx,
    AUTO_ACTOR,
    card,
    { status: 'processing', paymentAmount: card.expectedPayout },
    {
      also: {
        set: {
          decidedBy: 'auto',
          instantDecision: { rules: held },
          sampleStatus: sampled ? 'pending' : null,
        },
        changes: {
          decidedBy: { from: null, to: 'auto' },
          instantDecision: { from: null, to: { rules: held } },
          ...(sampled && { sampleStatus: { from: null, to: 'pending' } }),
        },
      },
    },
  );
  return { approved: true as const, changed: outcome.changed };
}

/**
 * A person's after-review of a sampled instant decision: confirmed, or marked for a clawback
 * (the money is then taken back through the card's clawback, by finance). Audited.
 */
export async function reviewSample(
  context: CommandContext,
  actor: Account,
  id: string,
  outcome: 'confirmed' | 'clawback',
): Promise<Outcome<{ sampleStatus: string }>> {
  return context.db.transaction(async (tx) => {
    const card = await lockCard(tx, id);
    if (card.sampleStatus !== 'pending') {
      throw new HttpError(
        409,
        card.sampleStatus === null
          ? 'This card is not a sampled instant decision'
          : 'This sampled card was already reviewed',
        undefined,
        { code: 'not_sampled' },
      );
    }
    await tx.update(transactions).set({ sampleStatus: outcome }).where(eq(transactions.id, id));
    await auditCard(tx, actor, id, 'sample_review', {
      sampleStatus: { from: 'pending', to: outcome },
    });
    return { value: { sampleStatus: outcome }, changed: [change([STAFF], ['queue'])] };
  });
}
