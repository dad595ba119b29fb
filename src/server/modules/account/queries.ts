import { eq } from 'drizzle-orm';
import type { EmailPreferences } from '../../../shared/email-preferences';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

/** The customer's optional emails, on or off; undefined when the account is gone. */
export async function emailPreferencesOf(
  db: Db,
  userId: string,
): Promise<EmailPreferences | undefined> {
  const [row] = await db
    .select({ statusUpdates: users.emailNotifications, digests: users.emailDigests })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
