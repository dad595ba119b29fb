import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import type {
  AdminVerification,
  VerificationState,
  VerificationStatus,
  VerificationSubmission,
} from '../../../shared/verification';
import { customerColumns } from '../../common/accounts';
import { auditEntries } from '../../common/audit';
import { afterCursorAscending, cursorColumn, toPage } from '../../common/cursor';
import type { Db } from '../../db/client';
import { auditLog, users, verificationSubmissions } from '../../db/schema';
import { levelLimits, submittedValue } from './selling-limits';

type SubmissionRow = typeof verificationSubmissions.$inferSelect;

export const toSubmission = (row: SubmissionRow): VerificationSubmission => ({
  id: row.id,
  level: row.level,
  status: row.status as VerificationSubmission['status'],
  documentType: row.documentType,
  country: row.country,
  reason: row.decisionReason,
  note: row.decisionNote,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
});

/** GET /api/verification: the customer's level, limits and what is left, and their submissions. */
export async function verificationState(
  db: Db,
  userId: string,
  now: number,
  documentRetentionDays: number,
): Promise<VerificationState | null> {
  const [user] = await db
    .select({ level: users.verificationLevel })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return null;
  const [levels, used, rows] = await Promise.all([
    levelLimits(db),
    submittedValue(db, userId, now),
    db
      .select()
      .from(verificationSubmissions)
      .where(eq(verificationSubmissions.userId, userId))
      .orderBy(desc(verificationSubmissions.createdAt)),
  ]);
  const mine = levels.find((l) => l.level === user.level) ?? levels[0]!;
  const latest = rows[0];
  const status: VerificationStatus = latest
    ? (latest.status as VerificationStatus)
    : user.level > 0
      ? 'approved'
      : 'none';
  return {
    level: user.level,
    status,
    limits: {
      perCard: mine.perCard,
      perDay: mine.perDay,
      per30Days: mine.per30Days,
      ...used,
    },
    levels: levels.map(({ updatedAt: _updated, ...l }) => l),
    submissions: rows.map(toSubmission),
    documentRetentionDays,
  };
}

const adminColumns = {
  submission: verificationSubmissions,
  ...customerColumns,
  userCreatedAt: users.createdAt,
  userVerificationLevel: users.verificationLevel,
  cursorCreatedAt: cursorColumn(verificationSubmissions.createdAt),
};

type AdminRow = {
  submission: SubmissionRow;
  userEmail: string;
  userFirstName: string | null;
  userLastName: string | null;
  userCreatedAt: Date;
  userVerificationLevel: number;
};

const toAdminVerification = (row: AdminRow): AdminVerification => {
  const s = row.submission;
  return {
    id: s.id,
    userId: s.userId,
    userEmail: row.userEmail,
    userFirstName: row.userFirstName,
    userLastName: row.userLastName,
    userCreatedAt: row.userCreatedAt.toISOString(),
    userVerificationLevel: row.userVerificationLevel,
    level: s.level,
    status: s.status as AdminVerification['status'],
    legalFirstName: s.legalFirstName,
    legalLastName: s.legalLastName,
    dateOfBirth: s.dateOfBirth,
    country: s.country,
    documentType: s.documentType,
    addressLine1: s.addressLine1,
    addressLine2: s.addressLine2,
    city: s.city,
    region: s.region,
    postalCode: s.postalCode,
    documentImages: s.documentImages,
    selfieImage: s.selfieImage,
    proofImages: s.proofImages,
    reason: s.decisionReason,
    note: s.decisionNote,
    decidedAt: s.decidedAt?.toISOString() ?? null,
    decidedBy: s.decidedBy,
    documentsDeletedAt: s.documentsDeletedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
  };
};

/** The staff queue: oldest first (the longest wait is served first), a page at a time. */
export async function listAdminVerifications(
  db: Db,
  options: { status: string; cursor?: string; limit: number },
) {
  const filters: SQL[] = [];
  if (options.status !== 'all') filters.push(eq(verificationSubmissions.status, options.status));
  if (options.cursor) {
    filters.push(
      afterCursorAscending(
        options.cursor,
        verificationSubmissions.createdAt,
        verificationSubmissions.id,
      ),
    );
  }
  const rows = await db
    .select(adminColumns)
    .from(verificationSubmissions)
    .innerJoin(users, eq(users.id, verificationSubmissions.userId))
    .where(and(...filters))
    .orderBy(asc(verificationSubmissions.createdAt), asc(verificationSubmissions.id))
    .limit(options.limit + 1);
  const { items, nextCursor } = toPage(
    rows.map((r) => ({ ...r, id: r.submission.id })),
    options.limit,
  );
  return { items: items.map(toAdminVerification), nextCursor };
}

export async function findAdminVerification(db: Db, id: string) {
  const [row] = await db
    .select(adminColumns)
    .from(verificationSubmissions)
    .innerJoin(users, eq(users.id, verificationSubmissions.userId))
    .where(eq(verificationSubmissions.id, id));
  return row ? toAdminVerification(row) : null;
}

/** The decision and every time staff opened one of its documents, newest first. */
export const verificationAudit = (db: Db, id: string) =>
  auditEntries(db, and(eq(auditLog.entityType, 'verification'), eq(auditLog.entityId, id))!);

/** Limits history: every change staff made to the table, newest first. */
export const limitsHistory = (db: Db, take: number) =>
  auditEntries(db, eq(auditLog.entityType, 'verification_limits'), take);
