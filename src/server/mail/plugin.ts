import type { FastifyInstance } from 'fastify';
import { MailQueue } from './queue';

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailQueue;
  }
}

/** The mail queue, delivering from the moment the app is ready until it closes. */
export function registerMail(app: FastifyInstance) {
  const queue = new MailQueue(app.database, app.config.mail, app.config.dataDir, app.log, app.now);
  app.decorate('mail', queue);
  app.addHook('onReady', async () => queue.start());
  app.addHook('onClose', async () => queue.stop());
}
