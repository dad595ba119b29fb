/**
 * Webhooks' public entry (issue 42, decision 127): a card's change queues its event in its own
 * transaction (cards); the partner API serves the endpoint routes under /api/v1 (partner), the
 * web app under /api/webhook-endpoints (routes); app.ts runs the sender.
 */
export { queueWebhookEvent } from './commands';
export { webhookEndpointRoutes } from './endpoint-routes';
export { resealWebhookSecrets } from './reseal';
export { default as webhookRoutes } from './routes';
export { WebhookSender } from './sender';
