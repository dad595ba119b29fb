import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploads } from '../../src/server/db/schema';
import { cardImagesHashed, deleteUnrecordedFiles } from '../../src/server/modules/files/uploads';
import { S3Storage } from '../../src/server/storage/s3-storage';
import { type S3TestServer, startS3Server } from '../storage/s3-server';
import {
  as,
  fixture,
  multipart,
  type SignedIn,
  setUpStaff,
  setUpTestApp,
  signUp,
  uploadCardImage,
} from './helpers';

/** The app with S3_* set: files go to a real S3-protocol server, none to DATA_DIR/objects. */
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.stop());
const t = setUpTestApp(() => ({ s3: s3.config }));
let alice: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  alice = await signUp(t.app, { firstName: 'Alice' });
  bob = await signUp(t.app, { firstName: 'Bob' });
});
const staff = setUpStaff(t);

const keyOf = (objectPath: string) => objectPath.replace('/objects/', '');
async function bucketKeys() {
  const keys: string[] = [];
  for await (const object of t.app.storage.list()) keys.push(object.key);
  return keys.sort();
}
const noLocalObjects = () => expect(existsSync(path.join(t.config.dataDir, 'objects'))).toBe(false);

describe('uploads with S3 storage', () => {
  it('uses the bucket', () => {
    expect(t.app.storage).toBeInstanceOf(S3Storage);
  });

  it('serves a card image from the bucket to its owner and staff, 404 to another customer', async () => {
    const objectPath = await uploadCardImage(t.app, alice);
    expect(await bucketKeys()).toContain(keyOf(objectPath));

    const own = await as(t.app, alice, { method: 'GET', url: objectPath });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/jpeg');
    expect(own.headers['content-length']).toBe(String(fixture('card-front.jpg').length));
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.equals(fixture('card-front.jpg'))).toBe(true);

    const byStaff = await as(t.app, staff, { method: 'GET', url: objectPath });
    expect(byStaff.statusCode).toBe(200);
    expect(byStaff.rawPayload.equals(fixture('card-front.jpg'))).toBe(true);

    const other = await as(t.app, bob, { method: 'GET', url: objectPath });
    expect(other.statusCode).toBe(404);
    const missing = await as(t.app, bob, {
      method: 'GET',
      url: `/objects/cards/${randomUUID()}.jpg`,
    });
    expect(missing.json()).toEqual(other.json());
    expect((await as(t.app, undefined, { method: 'GET', url: objectPath })).statusCode).toBe(401);
    noLocalObjects();
  });

  it('stores a file just under 10 MB in parts and serves it back whole', async () => {
    const nearLimit = Buffer.concat([fixture('card-back.png'), Buffer.alloc(9.9 * 1024 * 1024, 7)]);
    const response = await as(t.app, alice, {
      method: 'POST',
      url: '/api/upload-card-image',
      ...multipart(nearLimit, 'big.png', 'image/png'),
    });
    expect(response.statusCode).toBe(200);
    expect(s3.requests.some((r) => r.startsWith('PUT ') && r.includes('partNumber=2'))).toBe(true);
    const served = await as(t.app, alice, { method: 'GET', url: response.json().objectPath });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-length']).toBe(String(nearLimit.length));
    expect(served.rawPayload.equals(nearLimit)).toBe(true);
    noLocalObjects();
  });

  it('refused uploads (too large after a part was sent, wrong type) leave nothing in the bucket', async () => {
    const before = await bucketKeys();
    const big = Buffer.concat([fixture('card-front.jpg'), Buffer.alloc(11 * 1024 * 1024)]);
    const sent = s3.requests.length;
    const tooLarge = await as(t.app, alice, {
      method: 'POST',
      url: '/api/upload-card-image',
      ...multipart(big),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toBe('File is too large. The limit is 10 MB per file.');
    // The first 5 MB had gone up as part 1 of a multipart upload before the limit was reached.
    const during = s3.requests.slice(sent);
    expect(during.some((r) => r.startsWith('PUT ') && r.includes('partNumber=1'))).toBe(true);
    expect(during.some((r) => r.startsWith('POST ') && r.includes('uploadId='))).toBe(false);
    const notAnImage = await as(t.app, alice, {
      method: 'POST',
      url: '/api/upload-card-image',
      ...multipart(Buffer.from('<svg onload="alert(1)"/>'), 'x.png', 'image/png'),
    });
    expect(notAnImage.statusCode).toBe(400);
    expect(await bucketKeys()).toEqual(before);
    noLocalObjects();
  });

  it('hashes a card photo from the bytes it streams up: the object is never downloaded', async () => {
    const get = vi.spyOn(t.app.storage, 'get');
    const sent = s3.requests.length;
    const objectPath = await uploadCardImage(t.app, alice);
    // The hash is written after the answer (decision 086): what a submission waits for.
    await cardImagesHashed(t.database.db, [objectPath]);
    const during = s3.requests.slice(sent);
    // One PutObject (the photo is under one part), and no GetObject or any other read.
    expect(during.filter((r) => r.startsWith('PUT '))).toHaveLength(1);
    expect(during.filter((r) => r.startsWith('GET ') || r.startsWith('HEAD '))).toEqual([]);
    expect(get).not.toHaveBeenCalled();
    get.mockRestore();
    const [row] = await t.database.db
      .select({ perceptualHash: uploads.perceptualHash })
      .from(uploads)
      .where(eq(uploads.key, keyOf(objectPath)));
    expect(typeof row?.perceptualHash).toBe('bigint');
  });

  it('the sweep deletes bucket objects no row knows and keeps recorded ones', async () => {
    const recorded = keyOf(await uploadCardImage(t.app, alice));
    const stray = `cards/${randomUUID()}.jpg`;
    await t.app.storage.put(stray, Readable.from([fixture('card-front.jpg')]), 'image/jpeg');
    expect(await deleteUnrecordedFiles(t.database.db, t.app.storage, 0)).toBe(1);
    const keys = await bucketKeys();
    expect(keys).toContain(recorded);
    expect(keys).not.toContain(stray);
  });
});

describe('readiness with S3 storage', () => {
  let own: S3TestServer;
  beforeAll(async () => {
    own = await startS3Server();
  });
  afterAll(() => own.stop());
  const app = setUpTestApp(() => ({ s3: own.config }));

  it('is ready while the bucket answers and names the storage once it does not', async () => {
    const ready = await app.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', storage: 'ok' });
    await own.stop();
    const down = await app.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      status: 'unavailable',
      database: 'ok',
      storage: 'unavailable',
    });
  });
});
