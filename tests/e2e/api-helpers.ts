import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from 'playwright-core';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures');

/** A customer's card made through the API: a PayPal method, one photo, an Amazon card of $100. */
export async function submitCardByApi(
  request: APIRequestContext,
  cardType = 'Amazon',
  cardFormat: 'physical' | 'egift' = 'physical',
  extra: { cardCode?: string } = {},
) {
  const method = await (
    await request.post('/api/payment-methods', {
      data: { type: 'paypal', accountName: 'Riley Stone', identifier: 'riley.paypal@example.com' },
    })
  ).json();
  const upload = await request.post('/api/upload-card-image', {
    multipart: {
      file: {
        name: 'card.jpg',
        mimeType: 'image/jpeg',
        buffer: readFileSync(path.join(fixtures, 'card-front.jpg')),
      },
    },
  });
  const { objectPath } = await upload.json();
  const response = await request.post('/api/transactions', {
    data: {
      cardType,
      cardValue: '100',
      cardCondition: 'partially_used',
      cardFormat,
      paymentMethodId: method.id,
      imageUrls: [objectPath],
      notes: 'PIN is on the back',
      ...extra,
    },
  });
  if (response.status() !== 201) throw new Error(await response.text());
  return response.json() as Promise<{ id: string }>;
}
