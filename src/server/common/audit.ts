import { desc, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '../../shared/admin';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import type { Account } from './account';

export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** Who did it: a staff member, a customer (an offer's answer, an appeal), or the app itself. */
export type AuditActor =
  | Pick<Account, 'kind' | 'id' | 'email'>
  | typeof SYSTEM_ACTOR
  | typeof AUTO_ACTOR;

/** The app's own jobs (an offer that expired), in the audit trail. */
export const SYSTEM_ACTOR = {
  kind: 'system',
  id: '00000000-0000-0000-0000-000000000000',
  email: 'system',
} as const;

/** The instant-decision rules (issue 41, decision 131): a card approved with no person. */
export const AUTO_ACTOR = {
  kind: 'auto',
  id: '00000000-0000-0000-0000-000000000001',
  email: 'auto',
} as const;

/** Appends one audit row; call it inside the database transaction that makes the change. */
export function recordAudit(
  db: Db,
  actor: AuditActor,
  entry: {
    entityType:
      | 'transaction'
      | 'chat'
      | 'support_ticket'
      | 'user'
      | 'brand_rate'
      | 'payouts'
      | 'payout_rail'
      | 'disbursement'
      | 'ach_batch'
      | 'verification'
      | 'verification_limits'
      | 'staff'
      | 'api_key'
      | 'webhook_endpoint'
      | 'instant_policy';
    entityId: string | null;
    action: string;
    changes: AuditChanges;
  },
) {
  return db.insert(auditLog).values({
    ...entry,
    actorKind: actor.kind,
    actorId: actor.id,
    actorEmail: actor.email,
  });
}

/** One audit row about a card (entity `transaction`), in the transaction that changes it. */
export const auditCard = (
  db: Db,
  actor: AuditActor,
  cardId: string,
  action: string,
  changes: AuditChanges,
) => recordAudit(db, actor, { entityType: 'transaction', entityId: cardId, action, changes });

/**
 * Audit rows matching `where`, newest first (at most `take`), as staff read them: who, what and
 * the changes (a card's history, a verification's decisions and document views, limits changes).
 */
export async function auditEntries(db: Db, where: SQL, take?: number): Promise<AuditEntry[]> {
  const query = db.select().from(auditLog).where(where).orderBy(desc(auditLog.createdAt));
  const rows = await (take === undefined ? query : query.limit(take));
  return rows.map((r) => ({
    id: r.id,
    actorEmail: r.actorEmail,
    action: r.action,
    changes: r.changes as AuditEntry['changes'],
    createdAt: r.createdAt.toISOString(),
  }));
}
