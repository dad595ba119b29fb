import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { quote } from '../../../shared/card-rules';
import { isUuid } from '../../../shared/ids';
import { balanceSchema } from '../../../shared/ledger';
import { fromCents, toCents } from '../../../shared/money';
import {
  bulkCardsSchema,
  bulkResultSchema,
  MAX_BULK_CSV_BYTES,
  partnerCardListQuery,
  partnerCardPageSchema,
  partnerCardRequestSchema,
  partnerCardSchema,
  quoteRequestSchema,
  quoteSchema,
} from '../../../shared/partner-api';
import { tierFor, tierLabel } from '../../../shared/rates';
import { badRequest, notFound } from '../../common/http-error';
import { accountOf } from '../../plugins/auth';
import { perKeyLimit, requireApiKey } from '../api-keys';
import { partnerCard, partnerCards } from '../cards';
import { readFormFile } from '../files';
import { balanceOf } from '../ledger';
import { belowMinimum, termsForSubmission } from '../rates';
import { webhookEndpointRoutes } from '../webhooks';

import { CODE_BY_STATUS, rowsOfCsv, sellCard, sellRows } from './bulk';
import { PARTNER_OPENAPI_PATH, partnerOpenApi } from './openapi';

const CARD_NOT_FOUND = 'Card not found';

/** A stable `code` on every 4xx of /api/v1 (issue 42): the route's own, or one by status. */
async function withCode(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode < 400 || reply.statusCode >= 500 || typeof payload !== 'string') {
    return payload;
  }
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    if (body && typeof body === 'object' && !('code' in body)) {
      return JSON.stringify({
        ...body,
        code: CODE_BY_STATUS[reply.statusCode] ?? 'invalid_request',
      });
    }
  } catch {}
  return payload;
}

const idParams = z.object({ id: z.string() });

/**
 * The partner API, version 1 (issue 42): a key's seller quotes, sells and reads cards and reads
 * the balance, through the same commands and reads as the web app (decision 125).
 */
export default async function partnerRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onSend', withCode);
  const rateLimit = perKeyLimit(app.config.limits);

  // The partner API's own document: public, like the app's.
  r.get(PARTNER_OPENAPI_PATH, async () => partnerOpenApi(app.swagger() as never));

  r.post(
    '/api/v1/quotes',
    {
      onRequest: requireApiKey(null),
      config: { rateLimit, idempotent: true },
      schema: { body: quoteRequestSchema, response: { 200: quoteSchema } },
    },
    async (request) => {
      const { brand, value, format } = request.body;
      const terms = await termsForSubmission(app.db, brand);
      const problem = belowMinimum(terms, value);
      if (problem) throw badRequest(problem, 'value');
      // The tier a card of this format and value is bought at, as the submission uses (decision 130).
      const tier = tierFor(terms, format, value);
      const { rate, expectedPayout } = quote(tier?.rate ?? terms.rate, value);
      return {
        brand: terms.brand,
        value: fromCents(toCents(value)),
        format,
        rate,
        tier: tier ? tierLabel(tier) : null,
        payout: expectedPayout,
        minimum: terms.minimum,
      };
    },
  );

  r.post(
    '/api/v1/cards',
    {
      onRequest: requireApiKey('cards:write'),
      config: { rateLimit, idempotent: true },
      schema: { body: partnerCardRequestSchema, response: { 201: partnerCardSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const id = await sellCard(app, userId, request.body);
      return reply.code(201).send((await partnerCard(app.db, userId, id))!);
    },
  );

  r.post(
    '/api/v1/cards/bulk',
    {
      onRequest: requireApiKey('cards:write'),
      config: { rateLimit, idempotent: true },
      schema: {
        // JSON `{ cards: [...] }`, or a CSV file in the form field "file".
        body: bulkCardsSchema.nullish(),
        consumes: ['application/json', 'multipart/form-data'],
        response: { 200: bulkResultSchema },
      },
    },
    async (request) => {
      const rows = request.isMultipart()
        ? rowsOfCsv((await readFormFile(request, MAX_BULK_CSV_BYTES)).bytes)
        : request.body?.cards;
      if (!rows) throw badRequest('Send { cards: [...] } or a CSV file', 'cards');
      return { results: await sellRows(app, accountOf(request).id, rows) };
    },
  );

  r.get(
    '/api/v1/cards',
    {
      onRequest: requireApiKey('cards:read'),
      config: { rateLimit },
      schema: { querystring: partnerCardListQuery, response: { 200: partnerCardPageSchema } },
    },
    async (request) => partnerCards(app.db, accountOf(request).id, request.query),
  );

  r.get(
    '/api/v1/cards/:id',
    {
      onRequest: requireApiKey('cards:read'),
      config: { rateLimit },
      schema: { params: idParams, response: { 200: partnerCardSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const card = isUuid(id) ? await partnerCard(app.db, accountOf(request).id, id) : null;
      if (!card) throw notFound(CARD_NOT_FOUND);
      return card;
    },
  );

  r.get(
    '/api/v1/balance',
    {
      onRequest: requireApiKey('balance:read'),
      config: { rateLimit },
      schema: { response: { 200: balanceSchema } },
    },
    async (request) => balanceOf(app.db, accountOf(request).id),
  );

  // Webhooks (decision 127): endpoints, their log, a test event, a resend, a new secret.
  const manage = requireApiKey('webhooks:manage');
  webhookEndpointRoutes(app, {
    prefix: '/api/v1/webhook-endpoints',
    read: manage,
    remove: manage,
    send: manage,
    secret: manage,
    config: { read: { rateLimit }, write: { rateLimit, idempotent: true } },
  });
}
