import { asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { minimumMessage } from '../../../shared/card-rules';
import { fromCents, toCents } from '../../../shared/money';
import { type BrandRate, OTHER_BRAND } from '../../../shared/rates';
import { type AuditChanges, recordAudit } from '../../common/audit';
import type { Db } from '../../db/client';
import { auditLog, brandRates } from '../../db/schema';
import type { Account } from '../../plugins/auth';
import { badRequest, HttpError, notFound } from '../../plugins/errors';

type Row = typeof brandRates.$inferSelect;

/** "0.9100" -> "0.91": a rate as people read it (at least 2 decimals). */
export const shortRate = (rate: string) => {
  const [whole, fraction = ''] = rate.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
};
const toTerms = (row: Row): BrandRate => ({
  brand: row.brand,
  rate: shortRate(row.rate),
  minimum: row.minimum,
});

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
  return rows.map(toTerms);
}

/** Every brand, retired ones too (the staff Rates tab). */
export async function allRates(db: Db) {
  const rows = await db
    .select()
    .from(brandRates)
    .orderBy(...ORDER);
  return rows.map((row) => ({
    ...toTerms(row),
    id: row.id,
    retired: row.retiredAt !== null,
    updatedAt: row.updatedAt.toISOString(),
  }));
}

const findBrand = (db: Db, brand: string, lock: 'share' | 'update') =>
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
  return toTerms(row);
}

/** The card value's problem against the brand's minimum, as the form shows it. */
export function belowMinimum(terms: BrandRate, cardValue: string) {
  return toCents(cardValue) < toCents(terms.minimum) ? minimumMessage(terms.minimum) : null;
}

const percent = (rate: string) => `${Math.round(Number(rate) * 10000) / 100}%`;

/** The 409 of a submission whose shown rate is no longer the brand's. */
export function rateChanged(terms: BrandRate, quotedRate: string) {
  return new HttpError(
    409,
    `The rate for ${terms.brand === OTHER_BRAND ? 'this card' : terms.brand} changed from ${percent(quotedRate)} to ${percent(terms.rate)} since the form was opened. Check the new payout and submit again.`,
    { cardType: 'The rate changed' },
    { currentRate: terms.rate },
  );
}

const normalizedMoney = (value: string) => fromCents(toCents(value));
/** ".9" and "0.9000" as "0.90". */
const normalizedRate = (value: string) => shortRate(value.startsWith('.') ? `0${value}` : value);

/** A new brand, or a retired one back with new terms; audited. */
export async function addBrand(
  db: Db,
  actor: Account,
  input: { brand: string; rate: string; minimum: string },
) {
  return db.transaction(async (tx) => {
    const existing = await findBrand(tx, input.brand, 'update');
    if (existing && !existing.retiredAt) {
      throw new HttpError(409, `${existing.brand} is already on the list`, {
        brand: `${existing.brand} is already on the list`,
      });
    }
    const rate = normalizedRate(input.rate);
    const minimum = normalizedMoney(input.minimum);
    const now = new Date();
    const [row] = existing
      ? await tx
          .update(brandRates)
          .set({ rate, minimum, retiredAt: null, updatedAt: now })
          .where(eq(brandRates.id, existing.id))
          .returning()
      : await tx
          .insert(brandRates)
          .values({
            brand: input.brand,
            rate,
            minimum,
            position: sql`(select coalesce(max(${brandRates.position}), 0) + 1 from ${brandRates} where ${brandRates.brand} <> ${OTHER_BRAND})`,
          })
          .returning();
    const changes: AuditChanges = {
      brand: { from: existing?.brand ?? null, to: row!.brand },
      rate: { from: existing ? shortRate(existing.rate) : null, to: shortRate(row!.rate) },
      minimum: { from: existing?.minimum ?? null, to: row!.minimum },
      ...(existing && { retired: { from: true, to: false } }),
    };
    await recordAudit(tx, actor, {
      entityType: 'brand_rate',
      entityId: row!.id,
      action: existing ? 'restore' : 'create',
      changes,
    });
    return toTerms(row!);
  });
}

/** A new rate or minimum, or the brand retired or restored; audited with before and after. */
export async function changeBrand(
  db: Db,
  actor: Account,
  brand: string,
  input: { rate?: string; minimum?: string; retired?: boolean },
) {
  return db.transaction(async (tx) => {
    // An update lock: submissions of this brand holding the share lock finish first.
    const current = await findBrand(tx, brand, 'update');
    if (!current) throw notFound('Brand not found');
    if (input.retired && current.brand === OTHER_BRAND) {
      throw badRequest(
        'Other cannot be retired: it is how customers sell unlisted brands',
        'retired',
      );
    }
    const before = {
      rate: shortRate(current.rate),
      minimum: current.minimum,
      retired: current.retiredAt !== null,
    };
    const next = {
      rate: input.rate === undefined ? before.rate : normalizedRate(input.rate),
      minimum: input.minimum === undefined ? before.minimum : normalizedMoney(input.minimum),
      retired: input.retired ?? before.retired,
    };
    const changes: AuditChanges = {};
    for (const key of ['rate', 'minimum', 'retired'] as const) {
      if (before[key] !== next[key]) changes[key] = { from: before[key], to: next[key] };
    }
    if (Object.keys(changes).length === 0) return { terms: toTerms(current), changed: false };
    const [row] = await tx
      .update(brandRates)
      .set({
        rate: next.rate,
        minimum: next.minimum,
        retiredAt: next.retired ? (current.retiredAt ?? new Date()) : null,
        updatedAt: new Date(),
      })
      .where(eq(brandRates.id, current.id))
      .returning();
    await recordAudit(tx, actor, {
      entityType: 'brand_rate',
      entityId: current.id,
      action: changes.retired ? (next.retired ? 'retire' : 'restore') : 'update',
      changes: { brand: { from: current.brand, to: current.brand }, ...changes },
    });
    return { terms: toTerms(row!), changed: true };
  });
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
