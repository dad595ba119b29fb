import type { CommandContext } from '../../common/command';
import type { Db } from '../../db/client';
import { admins } from '../../db/schema';
import { queueMail } from '../../mail/queue';

/**
 * An email to every staff account about something waiting for them (an account suspended by a
 * rule, a customer's appeal), queued in the caller's transaction: it goes only if that commits.
 */
export async function alertStaff(
  tx: Db,
  context: CommandContext,
  alert: { subject: string; lines: string[] },
) {
  const staff = await tx.select({ email: admins.email }).from(admins);
  for (const member of staff) {
    await queueMail(tx, context.now(), member.email, 'staff-alert', {
      ...alert,
      url: `${context.config.appUrl}/admin`,
    });
  }
}
