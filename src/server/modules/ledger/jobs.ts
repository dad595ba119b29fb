import { and, eq, inArray } from 'drizzle-orm';
import { PRODUCT_NAME } from '../../../shared/brand';
import { can, STAFF_ROLES } from '../../../shared/staff-roles';
import type { CommandContext, Outcome } from '../../common/command';
import type { Db } from '../../db/client';
import { foldRollup } from '../../db/rollups';
import { admins } from '../../db/schema';
import { queueMail } from '../../mail/queue';
import { checkLedger, describeMismatch, type Mismatch } from './check';

/** The lines of a mismatch report an email carries; the rest are counted. */
const REPORTED = 20;

/**
 * The daily check of the books (issue 39): every card, clawback and account compared with what
 * the books hold. When anything differs, each active staff member who keeps the books (finance,
 * owners) is emailed the first mismatches, and the job answers them all.
 */
export async function checkBooks(context: CommandContext): Promise<Outcome<Mismatch[]>> {
  const mismatches = await checkLedger(context.db);
  if (mismatches.length > 0) {
    const keepers = STAFF_ROLES.filter((role) => can(role, 'books'));
    const staff = await context.db
      .select({ email: admins.email })
      .from(admins)
      .where(and(eq(admins.active, true), inArray(admins.role, keepers)));
    const lines = [
      `The daily check of the books found ${mismatches.length} mismatch${mismatches.length === 1 ? '' : 'es'} between the cards and the ledger:`,
      ...mismatches.slice(0, REPORTED).map(describeMismatch),
      ...(mismatches.length > REPORTED ? [`…and ${mismatches.length - REPORTED} more.`] : []),
      'Run `npm run ledger:check` for the whole list; correct each with a reversing entry through the app, never an edit.',
    ];
    for (const member of staff) {
      await queueMail(context.db, context.now(), member.email, 'staff-alert', {
        subject: `${PRODUCT_NAME}: the books do not match the cards`,
        lines,
        url: `${context.config.appUrl}/admin?tab=books`,
      });
    }
  }
  return { value: mismatches, changed: [] };
}

/** The days rolled up per account, folded (decision 085's way): every minute, on one instance. */
export const foldLedgerDays = (db: Db) =>
  foldRollup(db, {
    table: 'ledger_account_days',
    keys: ['day', 'account'],
    sums: ['debits', 'credits'],
  });
