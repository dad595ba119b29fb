import { and, desc, eq } from 'drizzle-orm';
import type { DataExport } from '../../../shared/privacy';
import type { Db } from '../../db/client';
import { dataExports } from '../../db/schema';

/** The account's exports, newest first; one whose 24 hours are over reads as expired. */
export async function accountExports(db: Db, userId: string, now: number): Promise<DataExport[]> {
  const rows = await db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt))
    .limit(20);
  return rows.map((row) => ({
    id: row.id,
    status:
      row.status === 'ready' && row.expiresAt && row.expiresAt.getTime() <= now
        ? 'expired'
        : (row.status as DataExport['status']),
    createdAt: row.createdAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    size: row.size,
  }));
}

/** One of the account's exports, or null (another account's is not found). */
export async function findExport(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, id), eq(dataExports.userId, userId)));
  return row ?? null;
}
