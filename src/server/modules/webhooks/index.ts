/**
 * Webhooks' public entry (issue 42, decision 127): a card's change queues its event in its own
 * transaction (cards); the partner API manages endpoints and reads their log (partner); app.ts
 * runs the sender.
 */
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  queueWebhookEvent,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
} from './commands';
export { deliveriesOf, listWebhookEndpoints } from './queries';
export { resealWebhookSecrets } from './reseal';
export { default as webhookRoutes } from './routes';
export { WebhookSender } from './sender';
