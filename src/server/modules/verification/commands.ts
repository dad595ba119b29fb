import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { fromCents, toCents } from '../../../shared/money';
import {
  ageOn,
  type LevelLimits,
  UNDER_18,
  type updateLimitsSchema,
  type VerificationSubmission,
  verificationRejectionLabel,
} from '../../../shared/verification';
import type { CreateVerificationInput } from '../../../shared/verification-submission';
import type { Account } from '../../common/account';
import { isUniqueViolation, lockAccount } from '../../common/accounts';
import { type AuditChanges, recordAudit } from '../../common/audit';
import {
  accountChanged,
  type CommandContext,
  change,
  type Outcome,
  STAFF,
} from '../../common/command';
import { HttpError, lockOr404, notFound } from '../../common/http-error';
import { notify } from '../../common/notify';
import { uploads, users, verificationLimits, verificationSubmissions } from '../../db/schema';
import { ownedUploadKeys } from '../files';
import { toSubmission } from './queries';
import { levelLimits } from './selling-limits';

const DAY_MS = 24 * 60 * 60 * 1000;

export const ALREADY_PENDING =
  'You already have a verification waiting for review. We will tell you when it is decided.';
const IMAGES_NOT_YOURS =
  'Each image must be a file you sent to /api/upload-verification-document for this verification, not used before';

const invalid = (field: string, message: string) =>
  new HttpError(400, message, { [field]: message });

/**
 * A customer asks to be verified at level 1 (identity) or 2 (address): under 18 is refused, one
 * submission may wait at a time, level 2 follows level 1, and each image must be a verification
 * upload of theirs that no other submission used.
 */
export async function submitVerification(
  context: CommandContext,
  userId: string,
  input: CreateVerificationInput,
): Promise<Outcome<VerificationSubmission>> {
  const now = new Date(context.now());
  if (input.level === 1) {
    if (input.dateOfBirth > now.toISOString().slice(0, 10)) {
      throw invalid('dateOfBirth', 'Date of birth cannot be in the future');
    }
    if (ageOn(input.dateOfBirth, now) < 18) throw invalid('dateOfBirth', UNDER_18);
  }
  const paths =
    input.level === 1 ? [...input.documentImages, input.selfieImage] : [...input.proofImages];
  const field = input.level === 1 ? 'documentImages' : 'proofImages';
  try {
    const row = await context.db.transaction(async (tx) => {
      const account = await lockAccount(tx, userId);
      if (!account) throw notFound('Account not found');
      if (account.standing === 'closed') throw new HttpError(403, 'This account is closed');
      if (account.verificationLevel >= input.level) {
        throw new HttpError(
          409,
          input.level === 1
            ? 'Your identity is already verified'
            : 'Your address is already verified',
        );
      }
      if (input.level === 2 && account.verificationLevel < 1) {
        throw new HttpError(409, 'Verify your identity (level 1) before your address (level 2)');
      }
      const [pending] = await tx
        .select({ id: verificationSubmissions.id })
        .from(verificationSubmissions)
        .where(
          and(
            eq(verificationSubmissions.userId, userId),
            eq(verificationSubmissions.status, 'pending'),
          ),
        );
      if (pending) throw new HttpError(409, ALREADY_PENDING, undefined, { code: 'pending' });

      const keys = paths.map((p) => p.slice('/objects/'.length));
      if (new Set(keys).size !== keys.length) throw invalid(field, IMAGES_NOT_YOURS);
      const owned = await ownedUploadKeys(tx, userId, 'verification', keys);
      const pathArray = sql`${`{${paths.map((p) => `"${p}"`).join(',')}}`}::text[]`;
      const [used] = await tx
        .select({ id: verificationSubmissions.id })
        .from(verificationSubmissions)
        .where(
          and(
            eq(verificationSubmissions.userId, userId),
            or(
              sql`${verificationSubmissions.documentImages} && ${pathArray}`,
              sql`${verificationSubmissions.proofImages} && ${pathArray}`,
              sql`${verificationSubmissions.selfieImage} = any(${pathArray})`,
            ),
          ),
        )
        .limit(1);
      if (owned.size !== keys.length || used) throw invalid(field, IMAGES_NOT_YOURS);

      const [inserted] = await tx
        .insert(verificationSubmissions)
        .values(
          input.level === 1
            ? {
                userId,
                level: 1,
                legalFirstName: input.legalFirstName,
                legalLastName: input.legalLastName,
                dateOfBirth: input.dateOfBirth,
                country: input.country,
                documentType: input.documentType,
                documentImages: input.documentImages,
                selfieImage: input.selfieImage,
                createdAt: now,
              }
            : {
                userId,
                level: 2,
                addressLine1: input.addressLine1,
                addressLine2: input.addressLine2 || null,
                city: input.city,
                region: input.region ?? null,
                postalCode: input.postalCode,
                country: input.country,
                proofImages: input.proofImages,
                createdAt: now,
              },
        )
        .returning();
      return inserted!;
    });
    return { value: toSubmission(row), changed: [change([userId], ['account'])] };
  } catch (error) {
    // Two submissions at the same moment: the one-pending index lets one through.
    if (isUniqueViolation(error)) {
      throw new HttpError(409, ALREADY_PENDING, undefined, { code: 'pending' });
    }
    throw error;
  }
}

const LEVEL_NAMES: Record<number, string> = { 1: 'identity', 2: 'address' };

/**
 * Staff approve a waiting submission (the customer's level rises at once) or reject it with a
 * reason; audited, and the customer is told in the app and by email.
 */
export async function decideVerification(
  context: CommandContext,
  actor: Account,
  id: string,
  input: { decision: 'approve' | 'reject'; reason?: string | null; note?: string | null },
): Promise<Outcome<string>> {
  return context.db.transaction(async (tx) => {
    const current = await lockOr404(
      tx
        .select()
        .from(verificationSubmissions)
        .where(eq(verificationSubmissions.id, id))
        .for('update'),
      'Verification not found',
    );
    if (current.status !== 'pending') {
      throw new HttpError(409, `This verification was already ${current.status}`);
    }
    const now = new Date(context.now());
    const approve = input.decision === 'approve';
    const status = approve ? 'approved' : 'rejected';
    const reason = approve ? null : (input.reason ?? null);
    const note = input.note?.trim() || null;
    await tx
      .update(verificationSubmissions)
      .set({
        status,
        decisionReason: reason,
        decisionNote: note,
        decidedAt: now,
        decidedBy: actor.email,
      })
      .where(eq(verificationSubmissions.id, id));
    const changes: AuditChanges = {
      status: { from: 'pending', to: status },
      level: { from: null, to: current.level },
    };
    if (reason) changes.reason = { from: null, to: reason };
    if (note) changes.note = { from: null, to: note };
    if (approve) {
      const [user] = await tx
        .select({ level: users.verificationLevel })
        .from(users)
        .where(eq(users.id, current.userId))
        .for('no key update');
      const next = Math.max(user?.level ?? 0, current.level);
      await tx
        .update(users)
        .set({ verificationLevel: next, updatedAt: now })
        .where(eq(users.id, current.userId));
      changes.verificationLevel = { from: user?.level ?? 0, to: next };
    }
    await recordAudit(tx, actor, {
      entityType: 'verification',
      entityId: id,
      action: input.decision,
      changes,
    });
    const what = LEVEL_NAMES[current.level] ?? 'account';
    const notice = await notify(context, tx, current.userId, {
      kind: 'verification',
      title: approve ? `Your ${what} is verified` : `We could not verify your ${what}`,
      body: approve
        ? 'Your selling limits are raised now. See them on the Verification page.'
        : `Reason: ${reason === 'other' && note ? note : verificationRejectionLabel(reason ?? '')}${
            reason !== 'other' && note ? ` (${note})` : ''
          }. You can send it again with new photos.`,
      link: '/verification',
    });
    return {
      value: status,
      changed: [...accountChanged({ kind: 'user', id: current.userId }), notice],
    };
  });
}

/**
 * Deletes the images of submissions decided more than VERIFICATION_DOCUMENT_RETENTION_DAYS ago:
 * their upload rows and files go, the submission keeps its decision and details. Answers how many
 * submissions lost their documents.
 */
export async function deleteExpiredVerificationDocuments(
  context: CommandContext,
): Promise<Outcome<number>> {
  const now = context.now();
  const before = new Date(now - context.config.verification.documentRetentionDays * DAY_MS);
  let done = 0;
  for (;;) {
    const keys = await context.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(verificationSubmissions)
        .where(
          and(
            lt(verificationSubmissions.decidedAt, before),
            isNull(verificationSubmissions.documentsDeletedAt),
          ),
        )
        .limit(50)
        .for('update', { skipLocked: true });
      if (due.length === 0) return null;
      const paths = due.flatMap((s) => [
        ...s.documentImages,
        ...(s.selfieImage ? [s.selfieImage] : []),
        ...s.proofImages,
      ]);
      const keys = paths.map((p) => p.slice('/objects/'.length));
      if (keys.length > 0) {
        await tx
          .delete(uploads)
          .where(and(inArray(uploads.key, keys), eq(uploads.kind, 'verification')));
      }
      await tx
        .update(verificationSubmissions)
        .set({
          documentImages: [],
          selfieImage: null,
          proofImages: [],
          documentsDeletedAt: new Date(now),
        })
        .where(
          inArray(
            verificationSubmissions.id,
            due.map((s) => s.id),
          ),
        );
      done += due.length;
      return keys;
    });
    if (keys === null) break;
    // Rows first, then bytes: a file without a row is never served, and the sweep removes it.
    for (const key of keys) await context.storage.delete(key);
  }
  return { value: done, changed: [] };
}

/** Staff set a level's limits; audited with before and after (the audit is the history). */
export async function updateLevelLimits(
  context: CommandContext,
  actor: Account,
  level: number,
  input: z.infer<typeof updateLimitsSchema>,
): Promise<Outcome<LevelLimits>> {
  return context.db.transaction(async (tx) => {
    const current = await lockOr404(
      tx.select().from(verificationLimits).where(eq(verificationLimits.level, level)).for('update'),
      'No such verification level',
    );
    const next = {
      perCard: fromCents(toCents(input.perCard)),
      perDay: fromCents(toCents(input.perDay)),
      per30Days: fromCents(toCents(input.per30Days)),
    };
    const changes: AuditChanges = {};
    for (const key of ['perCard', 'perDay', 'per30Days'] as const) {
      if (current[key] !== next[key]) changes[key] = { from: current[key], to: next[key] };
    }
    const now = new Date(context.now());
    if (Object.keys(changes).length > 0) {
      await tx
        .update(verificationLimits)
        .set({ ...next, updatedAt: now })
        .where(eq(verificationLimits.level, level));
      await recordAudit(tx, actor, {
        entityType: 'verification_limits',
        entityId: null,
        action: 'update',
        changes: { level: { from: level, to: level }, ...changes },
      });
    }
    const limits = (await levelLimits(tx)).find((l) => l.level === level)!;
    return {
      value: limits,
      changed: Object.keys(changes).length ? [change([STAFF], ['users'])] : [],
    };
  });
}
