import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  markNotificationsReadSchema,
  NOTIFICATIONS_SHOWN,
  notificationListSchema,
} from '../../../shared/notifications';
import { listNotifications, startNotificationEmails } from '../../common/notify';
import { accountOf, requireSignedIn } from '../../plugins/auth';
import { markNotificationsRead } from './commands';

export default async function notificationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  let stop = () => {};
  app.addHook('onReady', async () => {
    stop = startNotificationEmails(app);
  });
  app.addHook('onClose', async () => stop());

  r.get(
    '/api/notifications',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'notifications' } },
      schema: { response: { 200: notificationListSchema } },
    },
    async (request) => {
      const account = accountOf(request);
      // Staff have no notifications of their own: theirs is the whole queue.
      if (account.kind !== 'user') return { items: [], unreadCount: 0 };
      return listNotifications(app.db, account.id, NOTIFICATIONS_SHOWN);
    },
  );

  r.post(
    '/api/notifications/read',
    {
      onRequest: requireSignedIn,
      schema: { body: markNotificationsReadSchema, response: { 200: notificationListSchema } },
    },
    async (request) => {
      const account = accountOf(request);
      if (account.kind !== 'user') return { items: [], unreadCount: 0 };
      return app.run((context) => markNotificationsRead(context, account.id, request.body.ids));
    },
  );
}
