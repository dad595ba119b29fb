import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import type { Account } from './account';

export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** Who did it: a staff member, a customer (an offer's answer, an appeal), or the app itself. */
export type AuditActor = Pick<Account, 'kind' | 'id' | 'email'> | typeof SYSTEM_ACTOR;

/** The app's own jobs (an offer that expired), in the audit trail. */
export const SYSTEM_ACTOR = {
  kind: 'system',
  id: '00000000-0000-0000-0000-000000000000',
  email: 'system',
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
