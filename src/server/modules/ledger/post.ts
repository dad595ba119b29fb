import type { EntryKind } from '../../../shared/ledger';
import type { AuditActor } from '../../common/audit';
import type { Db } from '../../db/client';
import { ledgerEntries, ledgerPostings } from '../../db/schema';

/** Cents into (debit, positive) or out of (credit, negative) one account. */
export interface Posting {
  account: string;
  /** The seller's sub-account, on the seller accounts. */
  userId?: string | null;
  amount: number;
}

export interface NewEntry {
  at: Date;
  kind: EntryKind;
  transactionId?: string | null;
  clawbackId?: string | null;
  /** The payout (disbursement) it moves (issue 40). */
  disbursementId?: string | null;
  /** The seller the entry concerns. */
  userId?: string | null;
  memo: string;
  idempotencyKey: string;
  postings: Posting[];
}

/**
 * Posts one entry inside the caller's database transaction, once: a second entry with the same
 * idempotency key (a retry, a double click, another instance) posts nothing and answers null,
 * waiting for the first to commit or roll back. Postings of 0 are left out; the rest must sum to
 * zero (the database checks again at commit, decision 093). Answers the entry's id.
 */
export async function postEntry(
  tx: Db,
  actor: AuditActor,
  { postings, ...entry }: NewEntry,
): Promise<string | null> {
  const moving = postings.filter((p) => p.amount !== 0);
  if (moving.length === 0) return null;
  const total = moving.reduce((sum, p) => sum + p.amount, 0);
  if (total !== 0 || moving.some((p) => !Number.isSafeInteger(p.amount))) {
    throw new Error(`Unbalanced ledger entry ${entry.idempotencyKey}: postings sum to ${total}`);
  }
  const [row] = await tx
    .insert(ledgerEntries)
    .values({
      ...entry,
      memo: entry.memo.slice(0, 500),
      actorKind: actor.kind,
      actorId: actor.id,
      actorEmail: actor.email,
    })
    .onConflictDoNothing({ target: ledgerEntries.idempotencyKey })
    .returning({ id: ledgerEntries.id });
  if (!row) return null;
  await tx.insert(ledgerPostings).values(
    moving.map((p) => ({
      entryId: row.id,
      account: p.account,
      userId: p.userId ?? null,
      amount: p.amount,
      kind: entry.kind,
    })),
  );
  return row.id;
}

/** A transfer of `amount` cents from `credit` to `debit`: the two postings of a simple entry. */
export const move = (
  amount: number,
  debit: Posting['account'] | Omit<Posting, 'amount'>,
  credit: Posting['account'] | Omit<Posting, 'amount'>,
): Posting[] => {
  const side = (a: Posting['account'] | Omit<Posting, 'amount'>) =>
    typeof a === 'string' ? { account: a } : a;
  return [
    { ...side(debit), amount },
    { ...side(credit), amount: -amount },
  ];
};
