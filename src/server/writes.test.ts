import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every write goes through a command (docs/architecture.md, "the shape of a write"; issue 44):
 * an INSERT, UPDATE or DELETE, through Drizzle or in SQL text, is made only in a module's
 * `commands.ts`, in a file of the cards module's lifecycle (its commands are split by subject),
 * or in one of the write helpers below that only commands call. Migrations are SQL files of their
 * own and are not read here.
 */
const WRITE_HELPERS: Record<string, string> = {
  'common/audit.ts': 'the audit row, in the command that writes it',
  'common/notify.ts': 'a notice and its email, in the command that causes it',
  'common/tokens.ts': 'an emailed link, in the command that mails it',
  'common/accounts.ts': 'accounts made and passwords set, for the commands (and admin:create)',
  'common/standing.ts': "an account's standing, for staff's command and the fraud rule",
  'mail/queue.ts':
    'the outbox: a message queued in the command, then sent and marked by the mailer',
  'db/rollups.ts': 'the rollups folded by their job',
  'jobs.ts': "a job's period claimed by one instance (the row is the lock)",
  'plugins/rate-limit.ts': 'attempts counted before a secret is checked (decision 021)',
  'plugins/idempotency.ts':
    'an Idempotency-Key claimed before the handler and its answer kept after (decision 126)',
  'modules/auth/two-factor.ts': 'two-factor enrolment, for the sign-in commands (decision 100)',
  'modules/checks/checks.ts': "the submission's checks, in the submission's transaction",
  'modules/files/uploads.ts': 'an upload row, written as the file streams into storage',
  'modules/files/retention.ts': 'photos past their time, by the retention job',
  'modules/ledger/post.ts': 'an entry and its postings, in the command whose change it records',
  'modules/ledger/cards.ts': "a card's money, from changeCard",
  'modules/ledger/clawbacks.ts': 'a clawback, its reversal and its write-off, for the commands',
  'modules/cards/change.ts': "the card's one write (changeCard)",
  'modules/webhooks/reseal.ts':
    "signing secrets re-sealed under a new key, by keys:rotate (as cli/'s other sealed columns)",
};
/** The cards module's files that are commands (by subject), beside its reads. */
const CARD_READS = ['queries.ts', 'queue.ts', 'columns.ts', 'timeline.ts', 'receipt.ts'];

const server = path.resolve(import.meta.dirname);
const DRIZZLE_WRITE =
  /\b(tx|db|context\.db|database\.db|app\.db|client)\s*\.\s*(insert|update|delete)\s*\(/g;
const SQL_WRITE = /\b(insert\s+into|update\s+[a-z_]+\s+set|delete\s+from)\b/gi;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const mayWrite = (file: string) =>
  path.basename(file) === 'commands.ts' ||
  file in WRITE_HELPERS ||
  (file.startsWith('modules/cards/') && !CARD_READS.includes(path.basename(file))) ||
  file.startsWith('cli/');

describe('no write outside a command', () => {
  it('finds inserts, updates and deletes only in commands and the listed write helpers', () => {
    const outside: string[] = [];
    for (const full of sourceFiles(server)) {
      const file = path.relative(server, full);
      const text = readFileSync(full, 'utf8');
      const writes = [...text.matchAll(DRIZZLE_WRITE), ...text.matchAll(SQL_WRITE)];
      if (writes.length > 0 && !mayWrite(file)) {
        outside.push(`${file}: ${writes.map((w) => w[0].replace(/\s+/g, ' ')).join(', ')}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('would find one (the patterns match the forms the code uses)', () => {
    const probe = 'await tx\n      .update(cards)\n  await db.insert(x); sql`delete from y`';
    expect([...probe.matchAll(DRIZZLE_WRITE)].length + [...probe.matchAll(SQL_WRITE)].length).toBe(
      3,
    );
  });
});
