import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from 'playwright-core';
import { expect } from 'vitest';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures');

/** A PayPal payout method of the signed-in customer's, made through the API. */
export async function addPaypalByApi(
  request: APIRequestContext,
  accountName = 'Riley Stone',
  identifier = 'riley@example.com',
) {
  const response = await request.post('/api/payment-methods', {
    data: { type: 'paypal', accountName, identifier },
  });
  return response.json() as Promise<{ id: string }>;
}

/**
 * A card photo uploaded through the API: `photo` (a PNG) or the card-front.jpg fixture. Answers
 * its object path.
 */
export async function uploadPhotoByApi(request: APIRequestContext, photo?: Buffer) {
  const file = photo
    ? { name: 'card.png', mimeType: 'image/png', buffer: photo }
    : {
        name: 'card.jpg',
        mimeType: 'image/jpeg',
        buffer: readFileSync(path.join(fixtures, 'card-front.jpg')),
      };
  const upload = await request.post('/api/upload-card-image', { multipart: { file } });
  return ((await upload.json()) as { objectPath: string }).objectPath;
}

/**
 * A clean $100 brand-new e-code of `cardType` paid to `paymentMethodId`, with its own `photo` and
 * the scam question answered: asserted 201.
 */
export async function submitCleanCardByApi(
  request: APIRequestContext,
  cardType: string,
  paymentMethodId: string,
  photo: Buffer,
) {
  const response = await request.post('/api/transactions', {
    data: {
      cardType,
      cardValue: '100',
      cardCondition: 'brand_new',
      cardFormat: 'egift',
      paymentMethodId,
      imageUrls: [await uploadPhotoByApi(request, photo)],
      scamCheck: 'no',
    },
  });
  expect(response.status()).toBe(201);
  return response.json() as Promise<{ id: string; decidedBy: string | null }>;
}

/** A customer's card made through the API: a PayPal method, one photo, an Amazon card of $100. */
export async function submitCardByApi(
  request: APIRequestContext,
  cardType = 'Amazon',
  cardFormat: 'physical' | 'egift' = 'physical',
  extra: { cardCode?: string } = {},
) {
  const method = await addPaypalByApi(request, 'Riley Stone', 'riley.paypal@example.com');
  const response = await request.post('/api/transactions', {
    data: {
      cardType,
      cardValue: '100',
      cardCondition: 'partially_used',
      cardFormat,
      paymentMethodId: method.id,
      imageUrls: [await uploadPhotoByApi(request)],
      notes: 'PIN is on the back',
      ...extra,
    },
  });
  if (response.status() !== 201) throw new Error(await response.text());
  return response.json() as Promise<{ id: string }>;
}
