/** The partner API's own OpenAPI document (issue 42): the `/api/v1` part of the app's, for keys. */
import { z } from 'zod';
import {
  partnerCardSchema,
  partnerClawbackSchema,
  partnerPayoutSchema,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '../../../shared/partner-api';

type Operation = {
  security?: unknown;
  requestBody?: { content?: Record<string, { schema?: unknown; example?: unknown }> };
  [key: string]: unknown;
};
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
};

export const PARTNER_OPENAPI_PATH = '/api/v1/openapi.json';

/** Request examples, by `METHOD path`. */
const EXAMPLES: Record<string, unknown> = {
  'post /api/v1/quotes': { brand: 'Amazon', value: '100', format: 'egift' },
  'post /api/v1/cards': {
    brand: 'Amazon',
    value: '100',
    format: 'egift',
    code: 'AMZN-7Q2K-9XJ4-LM3P',
    pin: '1234',
    paymentMethodId: '6f1c2a4e-8d1b-4c53-9a7e-2b0f5d9e1c34',
    reference: 'order-10428',
  },
  'post /api/v1/webhook-endpoints': {
    url: 'https://partner.example.com/cardbridge/webhooks',
    events: ['card.updated'],
  },
};

/** What each event's `data` is (docs/partners.md). */
const EVENT_DATA: Record<WebhookEvent, { schema: z.ZodType; summary: string }> = {
  'card.updated': {
    schema: partnerCardSchema,
    summary:
      'A card changed: decided, offered, paid, taken back. The card as GET /api/v1/cards/{id} answers it.',
  },
  'payout.updated': {
    schema: partnerPayoutSchema,
    summary: 'A payout of your cards was queued, sent on its rail, confirmed, failed or cancelled.',
  },
  'clawback.created': {
    schema: partnerClawbackSchema,
    summary: 'Money was taken back from a paid card; it is set against your next payouts.',
  },
};

/**
 * The events sent to webhook endpoints, as OpenAPI 3.1 `webhooks`: each a POST to the endpoint
 * with the body every delivery carries (`id`, `type`, `timestamp`, `data`), signed per Standard
 * Webhooks.
 */
export const partnerWebhooks = () =>
  Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          summary: EVENT_DATA[event].summary,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: z.toJSONSchema(
                  z.object({
                    id: z.string().describe('evt_… : the same on every retry of this event'),
                    type: z.literal(event),
                    timestamp: z.string().describe('ISO 8601, when the event happened'),
                    data: EVENT_DATA[event].schema,
                  }),
                  { unrepresentable: 'any' },
                ),
              },
            },
          },
          responses: { '2XX': { description: 'Received. Any other answer is retried.' } },
        },
      },
    ]),
  );

export function partnerOpenApi(full: Document): Document {
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {})
      .filter(([path]) => path.startsWith('/api/v1/') && path !== PARTNER_OPENAPI_PATH)
      .map(([path, operations]) => [
        path,
        Object.fromEntries(
          Object.entries(operations).map(([method, operation]) => {
            const example = EXAMPLES[`${method} ${path}`];
            const json = operation.requestBody?.content?.['application/json'];
            return [
              method,
              {
                ...operation,
                security: [{ apiKey: [] }],
                ...(example && json
                  ? {
                      requestBody: {
                        ...operation.requestBody,
                        content: { 'application/json': { ...json, example } },
                      },
                    }
                  : {}),
              },
            ];
          }),
        ),
      ]),
  );
  return {
    ...full,
    info: {
      title: 'Cardbridge partner API',
      version: '1',
      description:
        'Sell gift card e-codes from your own systems. Send `Authorization: Bearer cb_live_…` ' +
        '(a key from your profile, with its scopes). Every POST takes an `Idempotency-Key` ' +
        'header (1 to 255 characters, kept 24 hours): the same key and body answer the first ' +
        'answer again with `Idempotent-Replayed: true`. Errors are `{ message, code, errors? }`; ' +
        '`code` is stable. Webhooks are signed per Standard Webhooks (`webhook-id`, ' +
        '`webhook-timestamp`, `webhook-signature`).',
    },
    paths,
    webhooks: partnerWebhooks(),
    components: {
      ...full.components,
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'cb_live_…' } },
    },
  };
}
