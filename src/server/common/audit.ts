import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import type { Account } from './account';

export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** Appends one audit row; call it inside the database transaction that makes the change. */
export function recordAudit(
  db: Db,
  actor: Account,
  entry: {
    entityType:
      | 'transaction'
      | 'chat'
      | 'support_ticket'
      | 'user'
      | 'brand_rate'
      | 'payouts'
      | 'verification'
      | 'verification_limits';
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
