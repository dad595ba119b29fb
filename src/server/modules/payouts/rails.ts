import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  type Disbursement,
  type DisbursementStatus,
  type PayoutRail,
  RAILS,
  type RailName,
} from '../../../shared/disbursements';
import { fromCents } from '../../../shared/money';
import { displayName } from '../../../shared/user-display';
import { nameAndEmail } from '../../common/accounts';
import { afterCursor, cursorColumn, toPage } from '../../common/cursor';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/client';
import { achBatches, disbursementCards, disbursements, payoutRails, users } from '../../db/schema';

/** Whether a rail has what it needs to pay (its env); the manual rail always has. */
export function railConfigured(config: AppConfig, rail: RailName): boolean {
  const kind = RAILS.find((r) => r.rail === rail)?.kind;
  if (kind === 'ach_file') return config.payouts.ach !== undefined;
  if (kind === 'evm_token') return config.payouts.evm !== undefined;
  return kind === 'manual';
}

/**
 * The rails (GET /api/admin/payout-rails): each with its payment types, kind, whether automatic
 * payout is on and whether it is configured. `balances` are an EVM rail's hot wallet's, read by
 * `walletBalances` (null elsewhere, or when the node cannot be reached); `queued` is what its
 * queued payouts add up to, every one of them (the panel once summed the list's first page).
 */
export async function listRails(
  db: Db,
  config: AppConfig,
  walletBalances: (rail: RailName) => Promise<PayoutRail['balances']> = async () => null,
): Promise<PayoutRail[]> {
  const [rows, queuedRows] = await Promise.all([
    db.select().from(payoutRails),
    db
      .select({
        rail: disbursements.rail,
        cents: sql<string>`sum(${disbursements.amount})::text`,
      })
      .from(disbursements)
      .where(eq(disbursements.status, 'queued'))
      .groupBy(disbursements.rail),
  ]);
  const on = new Map(rows.map((r) => [r.rail, r.autoPayout]));
  const queued = new Map(queuedRows.map((r) => [r.rail, Number(r.cents)]));
  return Promise.all(
    RAILS.map(async (r) => {
      const configured = railConfigured(config, r.rail);
      return {
        rail: r.rail,
        paymentTypes: [...r.paymentTypes],
        kind: r.kind,
        autoPayout: r.kind !== 'manual' && configured && (on.get(r.rail) ?? false),
        configured,
        balances: r.kind === 'evm_token' && configured ? await walletBalances(r.rail) : null,
        queued: fromCents(queued.get(r.rail) ?? 0),
      };
    }),
  );
}

type Row = typeof disbursements.$inferSelect;

type Customer = { email: string; name: string };

const toDisbursement = (row: Row, transactionIds: string[], customer?: Customer): Disbursement => ({
  id: row.id,
  customerId: row.userId,
  customerEmail: customer?.email ?? '',
  customerName: customer?.name ?? '',
  rail: row.rail,
  amount: fromCents(row.amount),
  status: row.status as DisbursementStatus,
  reference: row.reference,
  url: row.reference ? row.referenceUrl : null,
  attempts: row.attempts,
  lastError: row.lastError,
  transactionIds,
  createdAt: row.createdAt.toISOString(),
  submittedAt: row.submittedAt?.toISOString() ?? null,
  confirmedAt: row.confirmedAt?.toISOString() ?? null,
});

/** The cards of each payout, by payout id (those it pays or paid; a failed one's too). */
async function cardsOf(db: Db, ids: string[]) {
  const byId = new Map<string, string[]>();
  if (ids.length === 0) return byId;
  const rows = await db
    .select({ id: disbursementCards.disbursementId, card: disbursementCards.transactionId })
    .from(disbursementCards)
    .where(inArray(disbursementCards.disbursementId, ids))
    .orderBy(disbursementCards.transactionId);
  for (const r of rows) byId.set(r.id, [...(byId.get(r.id) ?? []), r.card]);
  return byId;
}

/** The sellers of some payouts, by id: email and display name. */
async function customersOf(db: Db, userIds: string[]) {
  const byId = new Map<string, Customer>();
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return byId;
  const rows = await db.select(nameAndEmail).from(users).where(inArray(users.id, ids));
  for (const r of rows) byId.set(r.id, { email: r.email, name: displayName(r) });
  return byId;
}

/** Payouts by id, in the order asked. */
export async function disbursementsByIds(
  db: Db,
  ids: string[],
  _config?: AppConfig,
): Promise<Disbursement[]> {
  if (ids.length === 0) return [];
  // In turn: `db` may be a transaction, whose connection runs one query at once.
  const rows = await db.select().from(disbursements).where(inArray(disbursements.id, ids));
  const cards = await cardsOf(db, ids);
  const customers = await customersOf(
    db,
    rows.map((r) => r.userId),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is Row => r !== undefined)
    .map((r) => toDisbursement(r, cards.get(r.id) ?? [], customers.get(r.userId)));
}

export const DISBURSEMENT_PAGE = 50;

/** Payouts newest first, by status if asked, a page at a time (keyset on created_at, id). */
export async function listDisbursements(
  db: Db,
  filter: { status?: DisbursementStatus; cursor?: string },
) {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(disbursements.status, filter.status));
  if (filter.cursor)
    where.push(afterCursor(filter.cursor, disbursements.createdAt, disbursements.id));
  const rows = await db
    .select({
      row: disbursements,
      id: disbursements.id,
      cursorCreatedAt: cursorColumn(disbursements.createdAt),
    })
    .from(disbursements)
    .where(and(...where))
    .orderBy(desc(disbursements.createdAt), desc(disbursements.id))
    .limit(DISBURSEMENT_PAGE + 1);
  const { items, nextCursor } = toPage(rows, DISBURSEMENT_PAGE);
  const cards = await cardsOf(
    db,
    items.map((r) => r.id),
  );
  const customers = await customersOf(
    db,
    items.map((r) => r.row.userId),
  );
  return {
    items: items.map((r) =>
      toDisbursement(r.row, cards.get(r.id) ?? [], customers.get(r.row.userId)),
    ),
    nextCursor,
  };
}

export const ACH_BATCH_LIST_LIMIT = 50;

/** The latest ACH batches, newest first (GET /api/admin/ach-batches). */
export async function listAchBatches(db: Db) {
  const rows = await db
    .select({
      id: achBatches.id,
      entries: achBatches.entries,
      total: achBatches.total,
      createdAt: achBatches.createdAt,
      settledAt: achBatches.settledAt,
    })
    .from(achBatches)
    .orderBy(desc(achBatches.createdAt), desc(achBatches.id))
    .limit(ACH_BATCH_LIST_LIMIT);
  return rows.map((r) => ({
    id: r.id,
    entries: r.entries,
    total: fromCents(r.total),
    createdAt: r.createdAt.toISOString(),
    settledAt: r.settledAt?.toISOString() ?? null,
  }));
}

/** One payout, or undefined. */
export async function findDisbursement(db: Db, id: string) {
  const [found] = await disbursementsByIds(db, [id]);
  return found;
}

export const railOf = (rail: string) => RAILS.find((r) => r.rail === rail);
