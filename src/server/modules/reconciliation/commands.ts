import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, getTableColumns, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { fromCents, toCents } from '../../../shared/money';
import {
  type Reconciliation,
  STATEMENT_GRACE_DAYS,
  type StatementLine,
} from '../../../shared/reconciliation';
import { PAID_PAYMENT_STATUSES } from '../../../shared/statuses';
import type { Account } from '../../common/account';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import type { Db } from '../../db/client';
import {
  paymentMethods,
  reconciliationLines,
  reconciliationMatches,
  reconciliationStatements,
  transactions,
  users,
} from '../../db/schema';
import { statementKey } from '../../storage/object-storage';
import { CARD_TOPICS, confirmPaymentSeen } from '../cards';
import { sentFor } from '../ledger';

const DAY_MS = 24 * 60 * 60 * 1000;
const normal = (reference: string) => reference.trim().toLowerCase();

/**
 * Finds, for each line in order, the payment it shows: a card paid through the statement's method
 * under the line's reference (the payout reference staff gave), not matched before, whose money
 * sent is the line's amount; else every such card under that reference together, when a batch
 * sent under one reference adds up to it. Answers the cards each line matched.
 */
function matchLines(
  lines: StatementLine[],
  cards: { id: string; reference: string; sent: number }[],
): Map<number, string[]> {
  const open = new Map<string, { id: string; sent: number }[]>();
  for (const card of cards) {
    const key = normal(card.reference);
    open.set(key, [...(open.get(key) ?? []), card]);
  }
  const matched = new Map<number, string[]>();
  for (const line of lines) {
    const candidates = open.get(normal(line.reference)) ?? [];
    const amount = toCents(line.amount);
    const one = candidates.find((c) => c.sent === amount);
    const all = candidates.reduce((sum, c) => sum + c.sent, 0) === amount ? candidates : [];
    const taken = one ? [one] : all;
    if (taken.length === 0) continue;
    matched.set(
      line.lineNo,
      taken.map((c) => c.id),
    );
    open.set(
      normal(line.reference),
      candidates.filter((c) => !taken.includes(c)),
    );
  }
  return matched;
}

/**
 * Finance import a statement of one payout method (issue 39): the file is stored, its lines
 * kept, each line matched to the payment it shows, and each matched card still Payment Sent set
 * to Payment Confirmed (audited, naming the statement). The cards are locked and a card is
 * matched once ever (its primary key in the matches), so the same file imported twice, even at
 * once, matches nothing twice. Answers the lines matched and not, and the payments sent long
 * enough before the file's last day that no line of any statement shows.
 */
export async function importStatement(
  context: CommandContext,
  actor: Account,
  input: { paymentType: string; fileName: string; bytes: Buffer; lines: StatementLine[] },
): Promise<Outcome<Reconciliation>> {
  const id = randomUUID();
  const key = statementKey(id);
  await context.storage.put(key, Readable.from([input.bytes]), 'text/csv');
  try {
    return await context.db.transaction(async (tx) => {
      const days = input.lines.map((l) => l.date).sort();
      const [firstDate, lastDate] = [days[0]!, days[days.length - 1]!];
      const references = [...new Set(input.lines.map((l) => normal(l.reference)))];
      // Locked in id order, as mark-sent locks them: two imports at once take turns, and the
      // second reads the first's matches once the cards are its own (a statement of its own).
      const locked = await tx
        .select(getTableColumns(transactions))
        .from(transactions)
        .innerJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
        .where(
          and(
            eq(paymentMethods.type, input.paymentType),
            inArray(transactions.paymentStatus, [...PAID_PAYMENT_STATUSES]),
            inArray(sql`lower(trim(${transactions.payoutReference}))`, references),
          ),
        )
        .orderBy(asc(transactions.id))
        .for('update', { of: transactions });
      const seen = new Set(
        locked.length === 0
          ? []
          : (
              await tx
                .select({ id: reconciliationMatches.transactionId })
                .from(reconciliationMatches)
                .where(
                  inArray(
                    reconciliationMatches.transactionId,
                    locked.map((c) => c.id),
                  ),
                )
            ).map((m) => m.id),
      );
      const paid = locked.filter((card) => !seen.has(card.id));
      const sent = await sentFor(
        tx,
        paid.map((p) => p.id),
      );
      const matched = matchLines(
        input.lines,
        paid.map((card) => ({
          id: card.id,
          reference: card.payoutReference!,
          sent: sent.get(card.id) ?? 0,
        })),
      );

      await tx.insert(reconciliationStatements).values({
        id,
        paymentType: input.paymentType,
        fileName: input.fileName.slice(0, 255),
        objectPath: key,
        sha256: createHash('sha256').update(input.bytes).digest('hex'),
        lines: input.lines.length,
        matched: matched.size,
        firstDate,
        lastDate,
        uploadedById: actor.id,
        createdAt: new Date(context.now()),
      });
      const lineIds = await tx
        .insert(reconciliationLines)
        .values(input.lines.map(({ date, ...l }) => ({ statementId: id, day: date, ...l })))
        .returning({ id: reconciliationLines.id, lineNo: reconciliationLines.lineNo });
      const lineIdOf = new Map(lineIds.map((l) => [l.lineNo, l.id]));
      const cards = new Map(paid.map((card) => [card.id, card]));
      const customers = new Set<string>();
      for (const [lineNo, ids] of matched) {
        await tx
          .insert(reconciliationMatches)
          .values(ids.map((transactionId) => ({ transactionId, lineId: lineIdOf.get(lineNo)! })));
        for (const cardId of ids) {
          const card = cards.get(cardId)!;
          if (card.paymentStatus !== 'sent') continue;
          await confirmPaymentSeen(context, tx, actor, card, id);
          customers.add(card.userId);
        }
      }
      return {
        value: {
          id,
          paymentType: input.paymentType,
          fileName: input.fileName,
          createdAt: new Date(context.now()).toISOString(),
          lines: input.lines.length,
          matched: matched.size,
          matchedLines: input.lines
            .filter((l) => matched.has(l.lineNo))
            .map((l) => ({ ...l, transactionIds: matched.get(l.lineNo)! })),
          unmatchedLines: input.lines.filter((l) => !matched.has(l.lineNo)),
          unmatchedPayments: await paymentsNotSeen(tx, input.paymentType, firstDate, lastDate),
        },
        changed: customers.size > 0 ? [change([...customers, STAFF], CARD_TOPICS)] : [],
      };
    });
  } catch (error) {
    await context.storage.delete(key).catch(() => {});
    throw error;
  }
}

/**
 * Payments sent through a method that a statement from `firstDate` to `lastDate` should show
 * (sent from STATEMENT_GRACE_DAYS before its first day to as long before its last) and that no
 * line of any statement matched, still Payment Sent: money that may not have arrived.
 */
async function paymentsNotSeen(db: Db, paymentType: string, firstDate: string, lastDate: string) {
  const grace = STATEMENT_GRACE_DAYS * DAY_MS;
  const rows = await db
    .select({
      id: transactions.id,
      paidAt: transactions.paidAt,
      reference: transactions.payoutReference,
      email: users.email,
    })
    .from(transactions)
    .innerJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(reconciliationMatches, eq(reconciliationMatches.transactionId, transactions.id))
    .where(
      and(
        eq(paymentMethods.type, paymentType),
        eq(transactions.paymentStatus, 'sent'),
        isNull(reconciliationMatches.transactionId),
        gte(transactions.paidAt, new Date(Date.parse(`${firstDate}T00:00:00Z`) - grace)),
        lt(transactions.paidAt, new Date(Date.parse(`${lastDate}T00:00:00Z`) + DAY_MS - grace)),
      ),
    )
    .orderBy(asc(transactions.paidAt))
    .limit(500);
  const sent = await sentFor(
    db,
    rows.map((r) => r.id),
  );
  return rows
    .filter((r) => (sent.get(r.id) ?? 0) > 0)
    .map((r) => ({
      transactionId: r.id,
      paidAt: r.paidAt!.toISOString(),
      amount: fromCents(sent.get(r.id)!),
      reference: r.reference,
      customerEmail: r.email,
    }));
}
