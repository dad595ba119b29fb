import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  BULK_CSV_COLUMNS,
  type BulkResult,
  MAX_BULK_CARDS,
  partnerCardRequestSchema,
} from '../../../shared/partner-api';

type PartnerCard = z.output<typeof partnerCardRequestSchema>;

import { badRequest, HttpError } from '../../common/http-error';
import { submitCard } from '../cards';
import { csvRows } from '../files';

/** The `code` of a refusal by status, when the refusal names none (the single route's too). */
export const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'invalid_api_key',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
};

/** A bulk CSV's rows as the JSON's card objects (a header row naming the columns first). */
export function rowsOfCsv(bytes: Buffer): Record<string, string>[] {
  const rows = csvRows(bytes);
  const header = rows[0]?.map((cell) => cell.trim()) ?? [];
  if (!['brand', 'value', 'format', 'code'].every((c) => header.includes(c))) {
    throw badRequest(`The first row must name the columns: ${BULK_CSV_COLUMNS.join(', ')}`, 'file');
  }
  const body = rows.slice(1);
  if (body.length === 0) throw badRequest('The file has no cards', 'file');
  if (body.length > MAX_BULK_CARDS) {
    throw badRequest(`A file holds at most ${MAX_BULK_CARDS} cards`, 'file');
  }
  return body.map((row) =>
    Object.fromEntries(
      header
        .map((column, i) => [column, row[i] ?? ''] as const)
        .filter(([column, value]) => BULK_CSV_COLUMNS.includes(column as never) && value !== ''),
    ),
  );
}

/**
 * Sells one card of the partner API through the web form's command: limits, standing, holds and
 * checks apply as they do there. Answers the new card's id.
 */
export function sellCard(app: FastifyInstance, userId: string, card: PartnerCard) {
  return app.run((context) =>
    submitCard(
      context,
      userId,
      {
        cardType: card.brand,
        cardValue: card.value,
        cardCondition: 'brand_new',
        cardFormat: card.format,
        paymentMethodId: card.paymentMethodId,
        imageUrls: card.imageUrls ?? [],
        cardCode: card.code,
      },
      { pin: card.pin, reference: card.reference },
    ),
  );
}

/**
 * Sells the rows one by one, in order, each through the single route's command (so limits count
 * as if they came one at a time): each row is all or nothing, never the file. A refusal carries
 * the code and message the single route gives.
 */
export async function sellRows(
  app: FastifyInstance,
  userId: string,
  rows: unknown[],
): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (const [index, row] of rows.entries()) {
    const parsed = partnerCardRequestSchema.safeParse(row);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Invalid card';
      results.push({ index, status: 'refused', code: 'invalid_request', message });
      continue;
    }
    const card = parsed.data;
    try {
      const id = await sellCard(app, userId, card);
      results.push({ index, status: 'created', id });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500) {
        const code = (error.extra?.code as string | undefined) ?? CODE_BY_STATUS[error.statusCode];
        results.push({ index, status: 'refused', code, message: error.message });
      } else {
        app.log.error({ err: error, index }, 'a bulk row failed');
        results.push({
          index,
          status: 'refused',
          code: 'try_again',
          message: 'This card could not be processed. Send it again.',
        });
      }
    }
  }
  return results;
}
