import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, transactions, uploads } from '../../src/server/db/schema';
import { applyRetention } from '../../src/server/modules/files/retention';
import { REMOVED_FOR_RETENTION } from '../../src/server/modules/files/routes';
import { setUpAppWithStaff } from './builders';
import { as, fixture, multipart, reviewCard, type SignedIn, signUp, submitCard } from './helpers';

const { t, staff } = setUpAppWithStaff();
const DAY = 24 * 60 * 60 * 1000;

/** A completed card of `who`, settled `daysAgo` days ago; answers its id and photo path. */
async function settledCard(who: SignedIn, daysAgo: number) {
  const card = (await submitCard(t.app, who)).json() as { id: string; imageUrls: string[] };
  const review = await reviewCard(t.app, staff, card.id, {
    status: 'completed',
    paymentStatus: 'sent',
    paymentAmount: '91.00',
  });
  expect(review.statusCode).toBe(200);
  const at = new Date(t.now() - daysAgo * DAY);
  await t.database.db
    .update(transactions)
    .set({ updatedAt: at, paidAt: at })
    .where(eq(transactions.id, card.id));
  return { id: card.id, photo: card.imageUrls[0]! };
}

/** A chat message with an image attachment, sent `daysAgo` days ago; answers its path. */
async function chatFile(who: SignedIn, daysAgo: number) {
  const upload = await as(t.app, who, {
    method: 'POST',
    url: '/api/chat/upload-attachment',
    ...multipart(fixture('card-front.jpg'), 'photo.jpg', 'image/jpeg'),
  });
  const url = upload.json().url as string;
  const sent = await as(t.app, who, {
    method: 'POST',
    url: '/api/chat/messages',
    payload: { message: 'here is the photo', attachmentUrl: url },
  });
  expect(sent.statusCode).toBe(201);
  await t.database.db
    .update(uploads)
    .set({ createdAt: new Date(t.now() - daysAgo * DAY) })
    .where(eq(uploads.key, url.replace('/objects/', '')));
  return url;
}

const get = (who: SignedIn, url: string) => as(t.app, who, { method: 'GET', url });
const auditCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;

describe('retention (RETAIN_CARD_IMAGES_DAYS, RETAIN_CHAT_FILES_DAYS)', () => {
  it('deletes a photo past its time, keeps a younger one, and staff see it was removed', async () => {
    expect(t.config.retention).toEqual({ cardImagesDays: 180, chatFilesDays: 365 });
    const customer = await signUp(t.app);
    const old = await settledCard(customer, 181);
    const young = await settledCard(customer, 179);
    // An open card is never touched, however old.
    const open = (await submitCard(t.app, customer)).json() as { id: string; imageUrls: string[] };
    await t.database.db
      .update(transactions)
      .set({ updatedAt: new Date(t.now() - 400 * DAY) })
      .where(eq(transactions.id, open.id));
    const oldChat = await chatFile(customer, 366);
    const youngChat = await chatFile(customer, 364);
    const audit = await auditCount();

    const removed = await applyRetention(t.app);
    expect(removed.cardImages).toBeGreaterThanOrEqual(1);
    expect(removed.chatFiles).toBeGreaterThanOrEqual(1);

    // Gone from storage; the customer and staff are told why.
    expect(await t.app.storage.get(old.photo.replace('/objects/', ''))).toBeNull();
    for (const who of [customer, staff]) {
      const answer = await get(who, old.photo);
      expect(answer.statusCode).toBe(410);
      expect(answer.json()).toEqual({ message: REMOVED_FOR_RETENTION });
      expect((await get(who, oldChat)).statusCode).toBe(410);
      expect((await get(who, young.photo)).statusCode).toBe(200);
      expect((await get(who, youngChat)).statusCode).toBe(200);
      expect((await get(who, open.imageUrls[0]!)).statusCode).toBe(200);
    }
    const detail = (await get(staff, `/api/admin/transactions/${old.id}`)).json();
    expect(detail.imageUrls).toEqual([old.photo]);
    expect(detail.removedImages).toEqual([old.photo]);
    expect((await get(staff, `/api/admin/transactions/${young.id}`)).json().removedImages).toEqual(
      [],
    );

    // The rows stay, marked; the card, its money and the audit log are kept.
    const [row] = await t.database.db
      .select()
      .from(uploads)
      .where(inArray(uploads.key, [old.photo.replace('/objects/', '')]));
    expect(row).toMatchObject({ removedReason: 'retention', transactionId: old.id });
    expect(detail).toMatchObject({ status: 'completed', paymentAmount: '91.00' });
    expect(await auditCount()).toBe(audit);

    // A second run has nothing left to do.
    expect(await applyRetention(t.app)).toEqual({ cardImages: 0, chatFiles: 0 });
  });
});
