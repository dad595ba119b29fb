import { z } from 'zod';
import {
  CARD_CODE_MAX_LENGTH,
  CARD_CODE_TOO_LONG,
  CARD_FORMATS,
  cardValueProblem,
} from './card-rules';
import { appealSchema, offerSchema } from './fair-dealing';
import { OTHER_BRAND } from './rates';
import { TRANSACTION_STATUSES } from './statuses';

/** The partner API (issue 42): keys, the versioned routes under /api/v1, and their shapes. */

export const API_KEY_SCOPES = [
  'cards:read',
  'cards:write',
  'balance:read',
  'webhooks:manage',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'cards:read': 'Read cards',
  'cards:write': 'Sell cards',
  'balance:read': 'Read the balance',
  'webhooks:manage': 'Manage webhooks',
};

/** A key is `cb_live_` and 32 random bytes written in base62 (43 characters). */
export const API_KEY_PREFIX = 'cb_live_';
/** The verification level a seller needs to create keys (issue 42). */
export const API_KEY_LEVEL = 2;
export const MAX_API_KEYS = 20;

export const INVALID_API_KEY = 'invalid_api_key';
export const INSUFFICIENT_SCOPE = 'insufficient_scope';
export const VERIFICATION_REQUIRED = 'verification_required';
export const IDEMPOTENCY_KEY_REUSED = 'idempotency_key_reused';
export const IDEMPOTENCY_IN_PROGRESS = 'idempotency_in_progress';

export const INVALID_API_KEY_MESSAGE = 'The API key is missing, wrong, revoked or expired';
export const insufficientScopeMessage = (scope: ApiKeyScope) =>
  `This API key does not have the ${scope} scope`;
export const VERIFICATION_REQUIRED_MESSAGE =
  'API keys are for sellers at verification level 2. Verify your address first.';
export const IDEMPOTENCY_KEY_REUSED_MESSAGE =
  'This Idempotency-Key was used with another request. Use a new key for a new request.';
export const IDEMPOTENCY_IN_PROGRESS_MESSAGE =
  'A request with this Idempotency-Key is still being processed. Try again in a moment.';
export const IDEMPOTENCY_KEY_INVALID = 'Idempotency-Key must be 1 to 255 characters';
/** How long an Idempotency-Key's answer is kept and replayed. */
export const IDEMPOTENCY_HOURS = 24;

/** POST /api/api-keys. */
export const createApiKeySchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Name must be at most 100 characters'),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `Scopes are ${API_KEY_SCOPES.join(', ')}` }), {
      error: 'Choose at least one scope',
    })
    .min(1, 'Choose at least one scope')
    .max(API_KEY_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
  expiresAt: z.iso
    .datetime({
      offset: true,
      error: 'expiresAt must be a date and time such as 2027-01-31T00:00:00Z',
    })
    .nullish(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** 201 of POST /api/api-keys: the key itself, shown this once. */
export const createdApiKeySchema = z.object({
  id: z.string(),
  key: z.string(),
  last4: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
});

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  last4: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  /** The client address of the last use. */
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

// --- /api/v1 ---

const brand = z
  .string({ error: 'brand is required' })
  .trim()
  .min(1, 'brand is required')
  .max(120, 'brand is too long');
const value = z.union([z.string(), z.number()], { error: 'value is required' }).transform(String);
const format = z.enum(CARD_FORMATS, { error: `format is ${CARD_FORMATS.join(' or ')}` });

/** The brand and value rules of the web form, said of the partner API's fields. */
function checkBrandAndValue(input: { brand: string; value: string }, ctx: z.RefinementCtx) {
  if (input.brand === OTHER_BRAND) {
    ctx.addIssue({ code: 'custom', path: ['brand'], message: 'Please specify the gift card type' });
  }
  const problem = cardValueProblem(input.value);
  if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
}

/** POST /api/v1/quotes. */
export const quoteRequestSchema = z
  .object({ brand, value, format })
  .superRefine(checkBrandAndValue);

export const quoteSchema = z.object({
  brand: z.string(),
  value: z.string(),
  format: z.enum(CARD_FORMATS),
  rate: z.string(),
  /** The rate tier that applies (decision 130), as the upload form names it; null for the brand rate. */
  tier: z.string().nullable(),
  payout: z.string(),
  minimum: z.string(),
});

/** POST /api/v1/cards: for an e-code, the code is the card and photos are optional. */
export const partnerCardRequestSchema = z
  .object({
    brand,
    value,
    format,
    code: z
      .string({ error: 'code is required' })
      .trim()
      .min(1, 'code is required')
      .max(CARD_CODE_MAX_LENGTH, CARD_CODE_TOO_LONG),
    pin: z.string().trim().max(32, 'pin must be at most 32 characters').nullish(),
    paymentMethodId: z.uuid({ error: 'paymentMethodId is required' }),
    reference: z.string().trim().max(200, 'reference must be at most 200 characters').nullish(),
    imageUrls: z.array(z.string().max(200)).max(10).optional(),
  })
  .superRefine((input, ctx) => {
    checkBrandAndValue(input, ctx);
    if (input.format === 'physical' && !input.imageUrls?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['imageUrls'],
        message: 'A physical card needs at least one photo',
      });
    }
  });
export type PartnerCardRequest = z.input<typeof partnerCardRequestSchema>;

export const partnerCardSchema = z.object({
  id: z.string(),
  reference: z.string().nullable(),
  brand: z.string(),
  value: z.string(),
  format: z.string(),
  codeLast4: z.string().nullable(),
  status: z.enum(TRANSACTION_STATUSES).or(z.string()),
  paymentStatus: z.string(),
  rate: z.string(),
  expectedPayout: z.string(),
  paymentAmount: z.string().nullable(),
  paymentMethodId: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  rejectionNote: z.string().nullable(),
  offer: offerSchema.nullable(),
  appeal: appealSchema.nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PartnerCard = z.infer<typeof partnerCardSchema>;

export const partnerCardListQuery = z.object({
  status: z
    .enum(TRANSACTION_STATUSES, { error: `status is ${TRANSACTION_STATUSES.join(', ')}` })
    .optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const partnerCardPageSchema = z.object({
  data: z.array(partnerCardSchema),
  nextCursor: z.string().nullable(),
});

// --- Webhooks ---

export const WEBHOOK_EVENTS = ['card.updated', 'payout.updated', 'clawback.created'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event "send test event" sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const MAX_WEBHOOK_ENDPOINTS = 5;
/** After this long failing, a delivery is given up and its endpoint disabled (Standard Webhooks). */
export const WEBHOOK_GIVE_UP_HOURS = 72;
/** The old secret of a rotated endpoint keeps signing for this long. */
export const WEBHOOK_OLD_SECRET_HOURS = 24;

export const WEBHOOK_URL_HTTPS = 'The URL must start with https://';
export const WEBHOOK_URL_PRIVATE =
  'The URL must resolve to public internet addresses only (not private, loopback or link-local)';

/** POST /api/v1/webhook-endpoints. */
export const createWebhookEndpointSchema = z.object({
  url: z
    .string({ error: 'url is required' })
    .trim()
    .min(1, 'url is required')
    .max(2000, 'url must be at most 2000 characters')
    .refine((url) => URL.canParse(url), 'url must be a full URL such as https://example.com/hooks'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: `events are ${WEBHOOK_EVENTS.join(', ')}` }), {
      error: 'Choose at least one event',
    })
    .min(1, 'Choose at least one event')
    .max(WEBHOOK_EVENTS.length)
    .transform((events) => [...new Set(events)]),
});
export type CreateWebhookEndpointInput = z.input<typeof createWebhookEndpointSchema>;

/** 201 of POST /api/v1/webhook-endpoints: the signing secret, shown this once. */
export const createdWebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  secret: z.string(),
});

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: z.string(),
  /** Set when deliveries failed for 3 days; the owner was emailed. */
  disabledAt: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventType: z.string(),
  /** 'pending' (to be tried, or tried again), 'delivered' or 'failed' (given up). */
  status: z.string(),
  attempts: z.number(),
  /** The receiver's HTTP status of the last try; null when none came back. */
  lastStatus: z.number().nullable(),
  lastDurationMs: z.number().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** The `data` of a `payout.updated` event: one payout of the seller's cards and its state. */
export const partnerPayoutSchema = z.object({
  id: z.string(),
  /** manual, ach or usdt_bep20. */
  rail: z.string(),
  amount: z.string(),
  /** queued, submitted (sent on its rail), confirmed, failed or cancelled. */
  status: z.string(),
  /** The rail's reference: staff's reference, an ACH trace number, a transaction hash. */
  reference: z.string().nullable(),
  /** Why it failed, when it did. */
  failureReason: z.string().nullable(),
  cardIds: z.array(z.string()),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
});
export type PartnerPayout = z.infer<typeof partnerPayoutSchema>;

/** The `data` of a `clawback.created` event: money taken back from a paid card, and the card. */
export const partnerClawbackSchema = z.object({
  id: z.string(),
  cardId: z.string(),
  amount: z.string(),
  /** What is still owed back; it is set against the seller's next payouts. */
  outstanding: z.string(),
  reason: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
  card: partnerCardSchema.nullable(),
});
export type PartnerClawback = z.infer<typeof partnerClawbackSchema>;

// --- Bulk ---

export const MAX_BULK_CARDS = 500;
/** A bulk CSV's columns, as the JSON's fields (a header row naming them comes first). */
export const BULK_CSV_COLUMNS = [
  'brand',
  'value',
  'format',
  'code',
  'pin',
  'paymentMethodId',
  'reference',
] as const;
export const MAX_BULK_CSV_BYTES = 512 * 1024;

/** POST /api/v1/cards/bulk as JSON; each row is checked on its own, as the single route does. */
export const bulkCardsSchema = z.object({
  cards: z
    .array(z.unknown(), { error: 'cards must be a list of cards' })
    .min(1, 'cards must hold at least one card')
    .max(MAX_BULK_CARDS, `cards holds at most ${MAX_BULK_CARDS} cards`),
});

export const bulkResultSchema = z.object({
  results: z.array(
    z.object({
      index: z.number(),
      status: z.enum(['created', 'refused']),
      id: z.string().optional(),
      code: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
});
export type BulkResult = z.infer<typeof bulkResultSchema>['results'][number];
