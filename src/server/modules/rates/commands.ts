import { and, count, eq, sql } from 'drizzle-orm';
import { fromCents, toCents } from '../../../shared/money';
import { MAX_RATE_ALERTS, type RateAlert } from '../../../shared/rate-schemas';
import { type BrandRate, OTHER_BRAND, type RateTier } from '../../../shared/rates';
import type { Account } from '../../common/account';
import { lockAccount } from '../../common/accounts';
import { type AuditChanges, recordAudit } from '../../common/audit';
import { type CommandContext, changeEverywhere, type Outcome } from '../../common/command';
import { badRequest, HttpError, notFound } from '../../common/http-error';
import { type Notice, notify } from '../../common/notify';
import type { Db } from '../../db/client';
import { brandRates, brandRateTiers, rateAlerts } from '../../db/schema';
import { bestRate, findBrand, shortRate, termsOf } from './queries';

/** Every open page that quotes (upload form, staff tab) refetches at once, on every instance. */
const RATES_CHANGED = changeEverywhere(['rates']);

const normalizedMoney = (value: string) => fromCents(toCents(value));
/** ".9" and "0.9000" as "0.90". */
const normalizedRate = (value: string) => shortRate(value.startsWith('.') ? `0${value}` : value);

/** A new brand, or a retired one back with new terms; audited. */
export async function addBrand(
  context: CommandContext,
  actor: Account,
  input: { brand: string; rate: string; minimum: string },
): Promise<Outcome<BrandRate>> {
  return context.db.transaction(async (tx) => {
    const existing = await findBrand(tx, input.brand, 'update');
    if (existing && !existing.retiredAt) {
      throw new HttpError(409, `${existing.brand} is already on the list`, {
        brand: `${existing.brand} is already on the list`,
      });
    }
    const rate = normalizedRate(input.rate);
    const minimum = normalizedMoney(input.minimum);
    const now = new Date(context.now());
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
    return { value: await termsOf(tx, row!), changed: [RATES_CHANGED] };
  });
}

/** Tiers in one order, their rates and amounts normalised, so two sets compare as text. */
const normalizedTiers = (tiers: readonly RateTier[]) =>
  tiers
    .map((t) => ({
      format: t.format,
      minValue: normalizedMoney(t.minValue),
      maxValue: t.maxValue === null ? null : normalizedMoney(t.maxValue),
      rate: normalizedRate(t.rate),
    }))
    .sort(
      (a, b) =>
        toCents(a.minValue) - toCents(b.minValue) ||
        a.format.localeCompare(b.format) ||
        (a.maxValue === null
          ? 1
          : b.maxValue === null
            ? -1
            : toCents(a.maxValue) - toCents(b.maxValue)),
    );

/** A new rate or minimum, or the brand retired or restored; audited with before and after. */
export async function changeBrand(
  context: CommandContext,
  actor: Account,
  brand: string,
  input: { rate?: string; minimum?: string; retired?: boolean; tiers?: RateTier[] },
): Promise<Outcome<BrandRate>> {
  return context.db.transaction(async (tx) => {
    // An update lock: submissions of this brand holding the share lock finish first.
    const current = await findBrand(tx, brand, 'update');
    if (!current) throw notFound('Brand not found');
    if (input.retired && current.brand === OTHER_BRAND) {
      throw badRequest(
        'Other cannot be retired: it is how customers sell unlisted brands',
        'retired',
      );
    }
    const terms = await termsOf(tx, current);
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
    // The tiers are replaced whole; the history records both sets (decision 130).
    const tiersBefore = normalizedTiers(terms.tiers);
    const tiersNext = input.tiers === undefined ? tiersBefore : normalizedTiers(input.tiers);
    if (JSON.stringify(tiersBefore) !== JSON.stringify(tiersNext)) {
      changes.tiers = { from: tiersBefore, to: tiersNext };
    }
    if (Object.keys(changes).length === 0) return { value: terms, changed: [] };
    const now = new Date(context.now());
    const [row] = await tx
      .update(brandRates)
      .set({
        rate: next.rate,
        minimum: next.minimum,
        retiredAt: next.retired ? (current.retiredAt ?? now) : null,
        updatedAt: now,
      })
      .where(eq(brandRates.id, current.id))
      .returning();
    if (changes.tiers) {
      await tx.delete(brandRateTiers).where(eq(brandRateTiers.brandId, current.id));
      if (tiersNext.length > 0) {
        await tx
          .insert(brandRateTiers)
          .values(tiersNext.map((t) => ({ ...t, brandId: current.id })));
      }
    }
    await recordAudit(tx, actor, {
      entityType: 'brand_rate',
      entityId: current.id,
      action: changes.retired ? (next.retired ? 'retire' : 'restore') : 'update',
      changes: { brand: { from: current.brand, to: current.brand }, ...changes },
    });
    const after = await termsOf(tx, row!);
    const told = next.retired ? [] : await tellRateAlerts(context, tx, terms, after);
    return { value: after, changed: [RATES_CHANGED, ...told] };
  });
}

const percentOf = (rate: string) => `${Math.round(Number(rate) * 10_000) / 100}%`;

/**
 * The sellers whose alert on this brand a change made cross upwards (decision 132): the best rate
 * for the alert's format was under its threshold before and is at or over it after. Each is told
 * once per crossing, in the app and by the notices' email (which honours their preferences and
 * unsubscribe); a change that stays above tells no one.
 */
async function tellRateAlerts(
  context: CommandContext,
  tx: Db,
  before: BrandRate,
  after: BrandRate,
) {
  const alerts = await tx
    .select()
    .from(rateAlerts)
    .where(eq(sql`lower(${rateAlerts.brand})`, after.brand.toLowerCase()));
  const changed = [];
  for (const alert of alerts) {
    const was = Number(bestRate(before, alert.format));
    const is = bestRate(after, alert.format);
    if (!(was < Number(alert.minRate) && Number(is) >= Number(alert.minRate))) continue;
    const what =
      alert.format === null
        ? after.brand
        : `${after.brand} (${alert.format === 'egift' ? 'e-code' : 'physical'})`;
    const notice: Notice = {
      kind: 'rate',
      title: `${what} now pays up to ${percentOf(is)}`,
      body: `The rate you asked about reached ${percentOf(is)}, at or above your alert of ${percentOf(alert.minRate)}. Sell a card at that rate now.`,
      link: `/upload?brand=${encodeURIComponent(after.brand)}`,
    };
    changed.push(await notify(context, tx, alert.userId, notice));
  }
  return changed;
}

/** A seller's new rate alert on a brand bought today; at most MAX_RATE_ALERTS each. */
export async function createRateAlert(
  context: CommandContext,
  userId: string,
  input: { brand: string; format?: 'physical' | 'egift' | null; minRate: string },
): Promise<Outcome<RateAlert>> {
  return context.db.transaction(async (tx) => {
    // One seller's alerts are counted and added one at a time.
    await lockAccount(tx, userId);
    const brand = await findBrand(tx, input.brand, 'share');
    if (!brand || brand.retiredAt || brand.brand === OTHER_BRAND) {
      throw badRequest('Choose a brand we buy', 'brand');
    }
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(rateAlerts)
      .where(eq(rateAlerts.userId, userId));
    if (n >= MAX_RATE_ALERTS) {
      throw new HttpError(409, `You can have at most ${MAX_RATE_ALERTS} rate alerts`, undefined, {
        code: 'too_many_alerts',
      });
    }
    const [row] = await tx
      .insert(rateAlerts)
      .values({
        userId,
        brand: brand.brand,
        format: input.format ?? null,
        minRate: normalizedRate(input.minRate),
        createdAt: new Date(context.now()),
      })
      .returning();
    return {
      value: {
        id: row!.id,
        brand: row!.brand,
        format: row!.format,
        minRate: shortRate(row!.minRate),
        createdAt: row!.createdAt.toISOString(),
      },
      changed: [],
    };
  });
}

/** A seller deletes one of their alerts (anyone else's is a 404). */
export async function deleteRateAlert(
  context: CommandContext,
  userId: string,
  id: string,
): Promise<Outcome<void>> {
  const deleted = await context.db
    .delete(rateAlerts)
    .where(and(eq(rateAlerts.id, id), eq(rateAlerts.userId, userId)))
    .returning({ id: rateAlerts.id });
  if (deleted.length === 0) throw notFound('Alert not found');
  return { value: undefined, changed: [] };
}
