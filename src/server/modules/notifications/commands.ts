import { and, eq, inArray, isNull } from 'drizzle-orm';
import { NOTIFICATIONS_SHOWN } from '../../../shared/notifications';
import { type CommandContext, change, type Outcome } from '../../common/command';
import { listNotifications } from '../../common/notify';
import { notifications } from '../../db/schema';

/**
 * A customer marks notifications read: only their own (another customer's id changes nothing).
 * Answers the list as it is afterwards.
 */
export async function markNotificationsRead(
  context: CommandContext,
  userId: string,
  ids: string[],
): Promise<Outcome<Awaited<ReturnType<typeof listNotifications>>>> {
  const marked = await context.db
    .update(notifications)
    .set({ readAt: new Date(context.now()) })
    .where(
      and(
        eq(notifications.userId, userId),
        inArray(notifications.id, ids),
        isNull(notifications.readAt),
      ),
    )
    .returning({ id: notifications.id });
  return {
    value: await listNotifications(context.db, userId, NOTIFICATIONS_SHOWN),
    changed: marked.length > 0 ? [change([userId], ['notifications'])] : [],
  };
}
