import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { PartnerCard } from '../../../shared/partner-api';
import { afterCursor, cursorColumn, toPage } from '../../common/cursor';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { fairDealingColumns, fairDealingFields } from './columns';

/** A card as the partner API answers it (issue 42): the object webhooks carry too. */
const columns = {
  id: transactions.id,
  partnerReference: transactions.partnerReference,
  cardType: transactions.cardType,
  cardValue: transactions.cardValue,
  cardFormat: transactions.cardFormat,
  cardCodeLast4: transactions.cardCodeLast4,
  status: transactions.status,
  paymentStatus: transactions.paymentStatus,
  payoutRate: transactions.payoutRate,
  expectedPayout: transactions.expectedPayout,
  paymentAmount: transactions.paymentAmount,
  paymentMethodId: transactions.paymentMethodId,
  rejectionReason: transactions.rejectionReason,
  rejectionNote: transactions.rejectionNote,
  paidAt: transactions.paidAt,
  createdAt: transactions.createdAt,
  updatedAt: transactions.updatedAt,
  cursorCreatedAt: cursorColumn(transactions.createdAt),
  ...fairDealingColumns,
};

type Row = Awaited<ReturnType<typeof selectCards>>[number];

const selectCards = (db: Db, where: SQL | undefined, limit: number) =>
  db
    .select(columns)
    .from(transactions)
    .where(where)
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit);

function toPartnerCard(row: Omit<Row, 'cursorCreatedAt'>): PartnerCard {
  const { offer, appeal } = fairDealingFields(row);
  return {
    id: row.id,
    reference: row.partnerReference,
    brand: row.cardType,
    value: row.cardValue,
    format: row.cardFormat,
    codeLast4: row.cardCodeLast4,
    status: row.status,
    paymentStatus: row.paymentStatus,
    rate: row.payoutRate,
    expectedPayout: row.expectedPayout,
    paymentAmount: row.paymentAmount,
    paymentMethodId: row.paymentMethodId,
    rejectionReason: row.rejectionReason,
    rejectionNote: row.rejectionNote,
    offer,
    appeal,
    paidAt: row.paidAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One of the seller's cards as the partner API answers it, or null (another's is none). */
export async function partnerCard(db: Db, userId: string, id: string) {
  const [row] = await selectCards(
    db,
    and(eq(transactions.id, id), eq(transactions.userId, userId)),
    1,
  );
  return row ? toPartnerCard(row) : null;
}

/** The seller's cards, newest first, by status if asked, a page at a time. */
export async function partnerCards(
  db: Db,
  userId: string,
  query: { status?: string; cursor?: string; limit?: number },
) {
  const limit = query.limit ?? 50;
  const rows = await selectCards(
    db,
    and(
      eq(transactions.userId, userId),
      query.status ? eq(transactions.status, query.status) : undefined,
      query.cursor ? afterCursor(query.cursor, transactions.createdAt, transactions.id) : undefined,
    ),
    limit + 1,
  );
  const page = toPage(rows, limit);
  return { data: page.items.map(toPartnerCard), nextCursor: page.nextCursor };
}
