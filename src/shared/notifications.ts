import { z } from 'zod';

/** An in-app notification: what staff did that the customer should know (the bell's list). */
export const notificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** The page it is about, such as /history. */
  link: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/notifications: the newest ones and how many are unread in all. */
export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  unreadCount: z.number(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const NOTIFICATIONS_SHOWN = 30;

/** POST /api/notifications/read: the ones the customer has seen. */
export const markNotificationsReadSchema = z.object({
  ids: z
    .array(z.uuid({ error: 'Each id must be a notification id' }), {
      error: 'ids must be a list of notification ids',
    })
    .min(1, 'Name at least one notification')
    .max(100, 'At most 100 at a time'),
});
