import { type AnyColumn, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { HttpError } from '../../common/http-error';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/client';
import { paymentMethods, transactions, users } from '../../db/schema';

/**
 * Payout holds (decision 072): a card is not paid to a method whose payee details are newer than
 * PAYOUT_HOLD_NEW_METHOD_HOURS, nor to an account younger than PAYOUT_HOLD_NEW_ACCOUNT_HOURS (0
 * turns either off). The hold ends at the later of the two.
 */
export interface HoldRules {
  newMethodHours: number;
  newAccountHours: number;
  /** The app's clock, in ms. */
  now: number;
}

export const holdRulesOf = (context: { config: AppConfig; now: () => number }): HoldRules => ({
  newMethodHours: context.config.verification.payoutHoldNewMethodHours,
  newAccountHours: context.config.verification.payoutHoldNewAccountHours,
  now: context.now(),
});

/**
 * A timestamptz as the text toISOString makes of it, by the database (both truncate to the
 * millisecond): the customer's answers carry it as it comes, with no Date made per cell.
 */
export const isoText = (value: SQL | AnyColumn) =>
  sql<string>`to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The columns a query selects (it joins `users` and `payment_methods`) to know a card's hold: when
 * each hold ends, as ISO text, or null when that hold is off or there is no method.
 */
export const holdColumns = (rules: HoldRules) => ({
  methodHoldEnds: sql<string | null>`${
    rules.newMethodHours > 0
      ? isoText(
          sql`${paymentMethods.payeeChangedAt} + make_interval(hours => ${rules.newMethodHours})`,
        )
      : sql`null`
  }`,
  accountHoldEnds: sql<string | null>`${
    rules.newAccountHours > 0
      ? isoText(sql`${users.createdAt} + make_interval(hours => ${rules.newAccountHours})`)
      : sql`null`
  }`,
});

export type HoldReason = 'new_method' | 'new_account';

/** When the card's payout may go, if it must still wait: the later hold that has not ended. */
export function holdOf(
  row: { methodHoldEnds: string | null; accountHoldEnds: string | null },
  now: number,
): { until: string; reason: HoldReason } | null {
  const holds = [
    { until: row.methodHoldEnds, reason: 'new_method' as const },
    { until: row.accountHoldEnds, reason: 'new_account' as const },
  ].filter(
    (h): h is { until: string; reason: HoldReason } => !!h.until && Date.parse(h.until) > now,
  );
  if (holds.length === 0) return null;
  return holds.reduce((a, b) => (Date.parse(b.until) > Date.parse(a.until) ? b : a));
}

export const HOLD_MESSAGES: Record<HoldReason, string> = {
  new_method: 'The payout method was added or its payee details changed recently',
  new_account: 'The account is new',
};

/** 409 for paying a held card (API contract: `{ code: 'payout_hold', until }`). */
export const payoutHoldError = (hold: { until: string; reason: HoldReason }) =>
  new HttpError(
    409,
    `This card cannot be paid yet: ${HOLD_MESSAGES[hold.reason].toLowerCase()}. The hold ends ${hold.until}.`,
    undefined,
    { code: 'payout_hold', until: hold.until },
  );

/** Suspended customers are not paid (decision 072); closed accounts' owed cards still are. */
export const SUSPENDED_PAYOUT =
  'This customer is suspended: their cards cannot be paid until they are reinstated.';

/**
 * Why each of these cards may not be paid now, by id: a hold, or a suspended account. Cards
 * missing from the answer may be paid. Read inside the caller's transaction.
 */
export async function payoutBlocks(db: Db, ids: string[], rules: HoldRules) {
  const blocks = new Map<string, HttpError>();
  if (ids.length === 0) return blocks;
  const rows = await db
    .select({ id: transactions.id, standing: users.standing, ...holdColumns(rules) })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .where(inArray(transactions.id, ids));
  for (const row of rows) {
    if (row.standing === 'suspended') {
      blocks.set(
        row.id,
        new HttpError(409, SUSPENDED_PAYOUT, undefined, { code: 'account_suspended' }),
      );
      continue;
    }
    const hold = holdOf(row, rules.now);
    if (hold) blocks.set(row.id, payoutHoldError(hold));
  }
  return blocks;
}
