import { asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { minimumMessage } from '../../../shared/card-rules';
import { toCents } from '../../../shared/money';
import { type BrandRate, OTHER_BRAND, type RateTier, type TierFormat } from '../../../shared/rates';
import type { AuditChanges } from '../../common/audit';
import { badRequest, HttpError } from '../../common/http-error';
import type { Db } from '../../db/client';
import { auditLog, brandRates, brandRateTiers, rateAlerts } from '../../db/schema';

type Row = typeof brandRates.$inferSelect;
type TierRow = typeof brandRateTiers.$inferSelect;

/** "0.9100" -> "0.91": a rate as people read it (at least 2 decimals). */
export const shortRate = (rate: string) => {
  const [whole, fraction = ''] = rate.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
};
const toTier = (row: TierRow): RateTier => ({
  format: row.format as TierFormat,
  minValue: row.minValue,
  maxValue: row.maxValue,
  rate: shortRate(row.rate),
});
export const toTerms = (row: Row, tiers: TierRow[] = []): BrandRate => ({
  brand: row.brand,
  rate: shortRate(row.rate),
  minimum: row.minimum,
  tiers: tiers.filter((t) => t.brandId === row.id).map(toTier),
});

/** The tiers of these brands, lowest band first (physical, e-code, then any within a band). */
export async function tiersOf(db: Db, brandIds: string[]): Promise<TierRow[]> {
  if (brandIds.length === 0) return [];
  return db
    .select()
    .from(brandRateTiers)
    .where(inArray(brandRateTiers.brandId, brandIds))
    .orderBy(asc(brandRateTiers.minValue), asc(brandRateTiers.format), asc(brandRateTiers.id));
}

/** A brand's terms with its tiers. */
export const termsOf = async (db: Db, row: Row) => toTerms(row, await tiersOf(db, [row.id]));

/** Highest rate first, brands of one rate in the seed's order, Other last. */
const ORDER = [
  sql`${brandRates.brand} = ${OTHER_BRAND}`,
  desc(brandRates.rate),
  asc(brandRates.position),
];

/** The brands bought today (GET /api/rates). */
export async function activeRates(db: Db): Promise<BrandRate[]> {
  const rows = await db
    .select()
    .from(brandRates)
    .where(isNull(brandRates.retiredAt))
    .orderBy(...ORDER);
  const tiers = await tiersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toTerms(row, tiers));
}

/** Every brand, retired ones too (the staff Rates tab). */
export async function allRates(db: Db) {
  const rows = await db
    .select()
    .from(brandRates)
    .orderBy(...ORDER);
  const tiers = await tiersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    ...toTerms(row, tiers),
    id: row.id,
    retired: row.retiredAt !== null,
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export const findBrand = (db: Db, brand: string, lock: 'share' | 'update') =>
  db
    .select()
    .from(brandRates)
    .where(eq(sql`lower(${brandRates.brand})`, brand.trim().toLowerCase()))
    .for(lock)
    .then((rows) => rows[0]);

/**
 * The terms a card of `cardType` is bought on, read inside the submission's transaction with a
 * share lock: a rate change waits for the submission, or the submission for the change, so the
 * card is stored with exactly the rate it was checked against. A listed brand has its own terms;
 * any other name (Other's custom text) gets Other's; a retired brand is refused.
 */
export async function termsForSubmission(tx: Db, cardType: string) {
  const own = await findBrand(tx, cardType, 'share');
  if (own?.retiredAt) {
    throw badRequest(`We no longer buy ${own.brand} gift cards.`, 'cardType');
  }
  const row = own ?? (await findBrand(tx, OTHER_BRAND, 'share'));
  if (!row) throw new HttpError(503, 'Rates are not available right now. Please try again.');
  return termsOf(tx, row);
}

/** The card value's problem against the brand's minimum, as the form shows it. */
export function belowMinimum(terms: BrandRate, cardValue: string) {
  return toCents(cardValue) < toCents(terms.minimum) ? minimumMessage(terms.minimum) : null;
}

const percent = (rate: string) => `${Math.round(Number(rate) * 10000) / 100}%`;

/** The 409 of a submission whose shown rate is no longer the one its card is bought at. */
export function rateChanged(terms: BrandRate, rate: string, quotedRate: string) {
  return new HttpError(
    409,
    `The rate for ${terms.brand === OTHER_BRAND ? 'this card' : terms.brand} changed from ${percent(quotedRate)} to ${percent(rate)} since the form was opened. Check the new payout and submit again.`,
    { cardType: 'The rate changed' },
    { currentRate: rate },
  );
}

/** Every change of the brands' terms, newest first, with who made it. */
export async function rateHistory(db: Db, limit: number) {
  const rows = await db
    .select({
      id: auditLog.id,
      brand: brandRates.brand,
      action: auditLog.action,
      actorEmail: auditLog.actorEmail,
      changes: auditLog.changes,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .innerJoin(brandRates, eq(brandRates.id, auditLog.entityId))
    .where(eq(auditLog.entityType, 'brand_rate'))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    changes: r.changes as AuditChanges,
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * The best rate a seller watching `format` (or any format, null) can get from these terms: the
 * brand rate, or a tier of that format (or of any) above it (decision 132).
 */
export function bestRate(terms: BrandRate, format: string | null): string {
  const tiers = terms.tiers.filter(
    (t) => format === null || t.format === format || t.format === 'any',
  );
  return [terms.rate, ...tiers.map((t) => t.rate)].reduce((best, rate) =>
    Number(rate) > Number(best) ? rate : best,
  );
}

/** A seller's rate alerts, newest first. */
export async function rateAlertsOf(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(rateAlerts)
    .where(eq(rateAlerts.userId, userId))
    .orderBy(desc(rateAlerts.createdAt), desc(rateAlerts.id));
  return rows.map((r) => ({
    id: r.id,
    brand: r.brand,
    format: r.format,
    minRate: shortRate(r.minRate),
    createdAt: r.createdAt.toISOString(),
  }));
}
