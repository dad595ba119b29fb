import { readdirSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../src/server/db/schema';
import { deleteOrphanUploads } from '../../src/server/modules/files/uploads';
import {
  as,
  fixture,
  multipart,
  type SignedIn,
  setUpTestApp,
  signInStaff,
  signUp,
  submitCard,
  uploadCardImage,
} from './helpers';

const t = setUpTestApp();
let alice: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  alice = await signUp(t.app, { firstName: 'Alice' });
  bob = await signUp(t.app, { firstName: 'Bob' });
});

const upload = (who: SignedIn | undefined, body: ReturnType<typeof multipart>) =>
  as(t.app, who, { method: 'POST', url: '/api/upload-card-image', ...body });

const filesOnDisk = () => {
  try {
    return readdirSync(path.join(t.config.dataDir, 'objects', 'cards'));
  } catch {
    return [];
  }
};
const uploadCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(uploads))[0]!.n;

describe('POST /api/upload-card-image', () => {
  it('stores JPEG, PNG and PDF under a random server-made name', async () => {
    for (const [name, type, ext] of [
      ['card-front.jpg', 'image/jpeg', 'jpg'],
      ['card-back.png', 'image/png', 'png'],
      ['purchase-receipt.pdf', 'application/pdf', 'pdf'],
    ] as const) {
      const response = await upload(alice, multipart(fixture(name), `../../evil ${name}`, type));
      expect(response.statusCode).toBe(200);
      expect(response.json().objectPath).toMatch(
        new RegExp(`^/objects/cards/[0-9a-f-]{36}\\.${ext}$`),
      );
    }
  });

  it('decides the type by the bytes: text, HTML and SVG named .png are refused', async () => {
    const before = filesOnDisk().length;
    for (const [bytes, name, type] of [
      ['just text', 'photo.png', 'image/png'],
      ['<!doctype html><script>alert(document.cookie)</script>', 'photo.png', 'image/png'],
      [
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        'card.svg',
        'image/svg+xml',
      ],
    ]) {
      const response = await upload(alice, multipart(Buffer.from(bytes!), name, type));
      expect(response.statusCode).toBe(400);
      const message = 'Only images (JPEG, PNG, WebP, GIF, HEIC) and PDF files are allowed';
      expect(response.json()).toEqual({ message, error: message });
    }
    expect(filesOnDisk().length).toBe(before);
  });

  it('accepts a file just under 10 MB', async () => {
    const nearLimit = Buffer.concat([fixture('card-front.jpg'), Buffer.alloc(9.9 * 1024 * 1024)]);
    expect((await upload(alice, multipart(nearLimit))).statusCode).toBe(200);
  });

  it('answers 413 for an 11 MB file and leaves nothing behind', async () => {
    const beforeFiles = filesOnDisk().length;
    const beforeRows = await uploadCount();
    const big = Buffer.concat([fixture('card-front.jpg'), Buffer.alloc(11 * 1024 * 1024)]);
    const response = await upload(alice, multipart(big));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('File is too large. The limit is 10 MB per file.');
    expect(filesOnDisk().length).toBe(beforeFiles);
    expect(await uploadCount()).toBe(beforeRows);
  });

  it('needs a multipart body with a file field', async () => {
    const json = await as(t.app, alice, {
      method: 'POST',
      url: '/api/upload-card-image',
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toMatch(/multipart/);
    const wrongField = await upload(
      alice,
      multipart(fixture('card-front.jpg'), 'a.jpg', 'image/jpeg', 'photo'),
    );
    expect(wrongField.statusCode).toBe(400);
  });

  it('is for signed-in customers: 401 anonymous, 403 staff', async () => {
    expect((await upload(undefined, multipart(fixture('card-front.jpg')))).statusCode).toBe(401);
    const staff = await signInStaff(t);
    const response = await upload(staff, multipart(fixture('card-front.jpg')));
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /objects/...', () => {
  it('serves a file to its uploader with safe headers', async () => {
    const objectPath = await uploadCardImage(t.app, alice);
    const response = await as(t.app, alice, { method: 'GET', url: objectPath });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toMatch(
      /^inline; filename="[0-9a-f-]{36}\.jpg"$/,
    );
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-security-policy']).toContain('sandbox');
    expect(response.rawPayload.equals(fixture('card-front.jpg'))).toBe(true);
  });

  it('serves PDFs as attachments', async () => {
    const response = await upload(
      alice,
      multipart(fixture('purchase-receipt.pdf'), 'r.pdf', 'application/pdf'),
    );
    const file = await as(t.app, alice, { method: 'GET', url: response.json().objectPath });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^attachment; /);
  });

  it('is 404 to another customer, 401 anonymous, and served to staff', async () => {
    const objectPath = await uploadCardImage(t.app, alice);
    const other = await as(t.app, bob, { method: 'GET', url: objectPath });
    expect(other.statusCode).toBe(404);
    const missing = await as(t.app, bob, {
      method: 'GET',
      url: '/objects/cards/00000000-0000-0000-0000-000000000000.jpg',
    });
    expect(missing.json()).toEqual(other.json());
    expect((await as(t.app, undefined, { method: 'GET', url: objectPath })).statusCode).toBe(401);
    const staff = await signInStaff(t);
    expect((await as(t.app, staff, { method: 'GET', url: objectPath })).statusCode).toBe(200);
  });

  it('refuses keys that could climb out of the storage folder', async () => {
    for (const url of [
      '/objects/../session-secret',
      '/objects/cards/..%2F..%2Fsession-secret',
      '/objects/cards/x.jpg',
    ]) {
      const response = await as(t.app, alice, { method: 'GET', url });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('orphan uploads', () => {
  it('deletes card images no transaction used after a day, and keeps the used ones', async () => {
    const orphan = await uploadCardImage(t.app, alice);
    const fresh = await uploadCardImage(t.app, alice);
    const used = (await submitCard(t.app, alice)).json().imageUrls[0] as string;
    const keyOf = (p: string) => p.replace('/objects/', '');
    await t.database.db
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) })
      .where(sql`${uploads.key} in (${keyOf(orphan)}, ${keyOf(used)})`);

    expect(await deleteOrphanUploads(t.database.db, t.app.storage)).toBe(1);
    expect(await t.app.storage.get(keyOf(orphan))).toBeNull();
    expect(
      await t.database.db
        .select()
        .from(uploads)
        .where(eq(uploads.key, keyOf(orphan))),
    ).toEqual([]);
    expect((await as(t.app, alice, { method: 'GET', url: used })).statusCode).toBe(200);
    expect((await as(t.app, alice, { method: 'GET', url: fresh })).statusCode).toBe(200);
  });
});
