import { or, sql } from 'drizzle-orm';
import type { Account } from '../../common/account';
import { recordAudit } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';
import { verificationSubmissions } from '../../db/schema';

/**
 * A staff member opened an identity document: one audit row per view, on the submission that
 * holds it (decision 072). Answers false when no submission holds it (it is not served then).
 */
export async function recordDocumentView(
  context: CommandContext,
  actor: Account,
  key: string,
): Promise<Outcome<boolean>> {
  const objectPath = `/objects/${key}`;
  return context.db.transaction(async (tx) => {
    const [submission] = await tx
      .select({ id: verificationSubmissions.id })
      .from(verificationSubmissions)
      .where(
        or(
          sql`${objectPath} = any(${verificationSubmissions.documentImages})`,
          sql`${objectPath} = any(${verificationSubmissions.proofImages})`,
          sql`${verificationSubmissions.selfieImage} = ${objectPath}`,
        ),
      )
      .limit(1);
    if (!submission) return { value: false, changed: [] };
    await recordAudit(tx, actor, {
      entityType: 'verification',
      entityId: submission.id,
      action: 'view_document',
      changes: { document: { from: null, to: objectPath } },
    });
    return { value: true, changed: [] };
  });
}
