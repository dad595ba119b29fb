import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reconciliationStatements } from '../../db/schema';

/** The statements imported, newest first. */
export async function listStatements(db: Db) {
  const rows = await db
    .select()
    .from(reconciliationStatements)
    .orderBy(desc(reconciliationStatements.createdAt))
    .limit(50);
  return rows.map((r) => ({
    id: r.id,
    paymentType: r.paymentType,
    fileName: r.fileName,
    createdAt: r.createdAt.toISOString(),
    lines: r.lines,
    matched: r.matched,
  }));
}
