import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { uploads, users, validationLogs } from '../../src/server/db/schema';
import { cardImagesHashed } from '../../src/server/modules/files/uploads';
import { noiseImage } from '../lib/noise-image';
import { setUpAppWithStaff } from './builders';
import { addPaymentMethod, as, CARD, fixture, multipart, type SignedIn, signUp } from './helpers';

const { t, staff } = setUpAppWithStaff();

/** An image no other test makes: deterministic pixels from `seed`, as a PNG. */
const uniqueImage = (seed: number) => noiseImage(seed, 120, 80);

async function upload(who: SignedIn, bytes: Buffer, name = 'card.png') {
  const response = await as(t.app, who, {
    method: 'POST',
    url: '/api/upload-card-image',
    ...multipart(bytes, name, name.endsWith('.png') ? 'image/png' : 'image/jpeg'),
  });
  expect(response.statusCode).toBe(200);
  return response.json().objectPath as string;
}

/** A customer whose account is two days old (so only what a test sets up is flagged). */
async function establishedCustomer() {
  const who = await signUp(t.app);
  await t.database.db
    .update(users)
    .set({ createdAt: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000) })
    .where(eq(users.id, who.user.id));
  return who;
}

async function submit(who: SignedIn, images: string[], body: object = {}) {
  const method = await addPaymentMethod(t.app, who);
  const response = await as(t.app, who, {
    method: 'POST',
    url: '/api/transactions',
    payload: {
      ...CARD,
      paymentMethodId: method.id,
      imageUrls: images,
      ...body,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}

const detail = async (id: string) =>
  (await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${id}` })).json();

const check = async (id: string, type: string) =>
  (await detail(id)).checks.find((c: { validationType: string }) => c.validationType === type);

let seed = 1;
const fresh = async (who: SignedIn) => upload(who, await uniqueImage(seed++));

describe('automated checks at submission', () => {
  it('pass a card with nothing remarkable, and record every rule', async () => {
    const who = await establishedCustomer();
    const id = await submit(who, [await fresh(who)]);
    const card = await detail(id);
    expect(card.validationStatus).toBe('passed');
    expect(card.validationFlags).toEqual([]);
    expect(card.checks.map((c: { validationType: string }) => c.validationType)).toEqual([
      'duplicate_image',
      'duplicate_code',
      'similar_image',
      'velocity',
      'new_account',
      'high_value',
      'minimum',
    ]);
    expect(card.checks.every((c: { status: string }) => c.status === 'passed')).toBe(true);
    expect((await check(id, 'minimum')).details).toBe(
      'Card value $100.00 meets the minimum of $25 for Amazon.',
    );
  });

  it('flag the same bytes on another customer’s card, naming it', async () => {
    const first = await establishedCustomer();
    const second = await establishedCustomer();
    const bytes = await uniqueImage(seed++);
    const original = await submit(first, [await upload(first, bytes)]);
    const copy = await submit(second, [await upload(second, bytes)]);
    const duplicate = await check(copy, 'duplicate_image');
    expect(duplicate.status).toBe('flagged');
    expect(duplicate.relatedTransactionIds).toEqual([original]);
    expect(duplicate.details).toContain(original.slice(0, 8));
    expect((await detail(copy)).validationStatus).toBe('flagged');
    // The first card was not a copy when it came.
    expect((await check(original, 'duplicate_image')).status).toBe('passed');
  });

  it('flag a re-encoded, resized copy of another customer’s photo, and not an unrelated one', async () => {
    const seller = await establishedCustomer();
    const original = await submit(seller, [
      await upload(seller, fixture('card-front.jpg'), 'front.jpg'),
    ]);
    const resold = await establishedCustomer();
    const copy = await sharp(fixture('card-front.jpg'))
      .resize(240)
      .jpeg({ quality: 60 })
      .toBuffer();
    const copied = await submit(resold, [await upload(resold, copy, 'copy.jpg')]);
    const similar = await check(copied, 'similar_image');
    expect(similar.status).toBe('flagged');
    expect(similar.relatedTransactionIds).toContain(original);
    expect(similar.details).toMatch(/bits differ/);
    expect((await check(copied, 'duplicate_image')).status).toBe('passed');

    const unrelated = await submit(resold, [await fresh(resold)]);
    expect((await check(unrelated, 'similar_image')).status).toBe('passed');
    // The customer's own earlier photo is no fraud.
    const again = await submit(seller, [await upload(seller, copy, 'again.jpg')]);
    expect((await check(again, 'similar_image')).relatedTransactionIds).not.toContain(original);
  });

  it('compare a photo whose hash another instance writes after the submission arrived', async () => {
    const seller = await establishedCustomer();
    const original = await submit(seller, [
      await upload(seller, fixture('card-front.jpg'), 'front.jpg'),
    ]);
    const resold = await establishedCustomer();
    const bytes = await sharp(fixture('card-front.jpg')).resize(200).jpeg().toBuffer();
    const copy = await upload(resold, bytes, 'copy.jpg');
    await cardImagesHashed(t.database.db, [copy]);
    const row = eq(uploads.key, copy.slice('/objects/'.length));
    const [{ hash }] = (await t.database.db
      .select({ hash: uploads.perceptualHash })
      .from(uploads)
      .where(row)) as [{ hash: bigint }];
    // As if the upload had gone to another instance, still hashing it when the card comes.
    await t.database.db.update(uploads).set({ hashPending: true, perceptualHash: null }).where(row);
    const submitted = submit(resold, [copy]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.database.db
      .update(uploads)
      .set({ hashPending: false, perceptualHash: hash })
      .where(row);
    const similar = await check(await submitted, 'similar_image');
    expect(similar.status).toBe('flagged');
    expect(similar.relatedTransactionIds).toContain(original);
  });

  it('do not wait for a hash lost with its instance, and say the photo was not compared', async () => {
    const who = await establishedCustomer();
    const photo = await fresh(who);
    await cardImagesHashed(t.database.db, [photo]);
    await t.database.db.execute(
      sql`update uploads set hash_pending = true, perceptual_hash = null,
                             created_at = now() - interval '3 minutes'
           where key = ${photo.slice('/objects/'.length)}`,
    );
    const similar = await check(await submit(who, [photo]), 'similar_image');
    expect(similar.status).toBe('passed');
    expect(similar.details).toMatch(/1 file \(a PDF or an unreadable image\) was not compared/);
  });

  it('flag the 6th card of a customer in 24 hours', async () => {
    const busy = await establishedCustomer();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await submit(busy, [await fresh(busy)]));
    expect((await check(ids[4]!, 'velocity')).status).toBe('passed');
    const sixth = await check(ids[5]!, 'velocity');
    expect(sixth.status).toBe('flagged');
    expect(sixth.details).toMatch(/^6 cards from this customer in the last 24 hours/);
  });

  it('flag a card of $500 or more; a new account alone is information, not a flag', async () => {
    const newcomer = await signUp(t.app);
    const id = await submit(newcomer, [await fresh(newcomer)], { cardValue: '500' });
    expect((await check(id, 'new_account')).status).toBe('info');
    expect((await check(id, 'high_value')).status).toBe('flagged');
    expect((await detail(id)).validationFlags).toEqual(['high_value']);
    // A newcomer's ordinary first card is not flagged.
    const first = await submit(newcomer, [await fresh(newcomer)]);
    expect((await check(first, 'new_account')).status).toBe('info');
    expect((await detail(first)).validationStatus).toBe('passed');
    expect((await detail(first)).validationFlags).toEqual([]);
    const old = await establishedCustomer();
    const below = await submit(old, [await fresh(old)], { cardValue: '499.99' });
    expect((await check(below, 'high_value')).status).toBe('passed');
    expect((await check(below, 'new_account')).status).toBe('passed');
  });

  it('let staff filter the queue to flagged cards; customers never see the verdict', async () => {
    const newcomer = await signUp(t.app);
    const flagged = await submit(newcomer, [await fresh(newcomer)], { cardValue: '500' });
    const informed = await submit(newcomer, [await fresh(newcomer)]);
    const queue = await as(t.app, staff, {
      method: 'GET',
      url: '/api/admin/transactions?validation=flagged&limit=100',
    });
    const rows = queue.json() as {
      id: string;
      validationStatus: string;
      validationFlags: string[];
    }[];
    expect(rows.map((r) => r.id)).toContain(flagged);
    expect(rows.map((r) => r.id)).not.toContain(informed);
    expect(
      rows.every((r) => r.validationStatus === 'flagged' && r.validationFlags.length > 0),
    ).toBe(true);
    expect(
      (await as(t.app, staff, { method: 'GET', url: '/api/admin/transactions?validation=maybe' }))
        .statusCode,
    ).toBe(400);
    const mine = await as(t.app, newcomer, { method: 'GET', url: '/api/transactions' });
    expect(mine.json()[0]).not.toHaveProperty('validationStatus');
  });

  it('write nothing when the submission fails', async () => {
    const who = await establishedCustomer();
    const other = await establishedCustomer();
    const theirs = await fresh(other);
    const method = await addPaymentMethod(t.app, who);
    const before = await t.database.db.$count(validationLogs);
    const refused = await as(t.app, who, {
      method: 'POST',
      url: '/api/transactions',
      payload: {
        ...CARD,
        paymentMethodId: method.id,
        imageUrls: [theirs],
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(await t.database.db.$count(validationLogs)).toBe(before);
  });
});
