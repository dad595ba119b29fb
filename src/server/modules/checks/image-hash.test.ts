import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../shared/card-rules';
import { HASH_MEMORY_BYTES, startImageHash } from './image-hash';

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '..', '..', '..', '..', 'tests', 'fixtures', name));

/** Hashes `bytes` written in chunks of `chunkSize`, as an upload's bytes arrive. */
async function hashOf(bytes: Buffer, chunkSize = 64 * 1024) {
  const hasher = await startImageHash(bytes.length);
  for (let at = 0; at < bytes.length; at += chunkSize)
    hasher.write(bytes.subarray(at, at + chunkSize));
  return hasher.digest();
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('perceptual hash of streamed bytes', () => {
  it('is the same however the bytes were cut, and close for a re-encoded copy', async () => {
    const photo = fixture('card-front.jpg');
    const whole = await hashOf(photo, photo.length);
    expect(typeof whole).toBe('bigint');
    expect(await hashOf(photo, 1000)).toBe(whole);
    const copy = await sharp(photo).resize(240).jpeg({ quality: 60 }).toBuffer();
    const bits = (
      BigInt.asUintN(64, whole! ^ (await hashOf(copy))!)
        .toString(2)
        .match(/1/g) ?? []
    ).length;
    expect(bits).toBeLessThanOrEqual(10);
  });

  it('is null for bytes that are not an image and for images over the pixel limit', async () => {
    expect(await hashOf(fixture('purchase-receipt.pdf'))).toBeNull();
    expect(await hashOf(fixture('card-front.jpg').subarray(0, 200))).toBeNull();
    // 8,000 × 7,000 = 56 megapixels of one colour: a small file, a decompression bomb.
    const bomb = await sharp({
      create: { width: 8000, height: 7000, channels: 3, background: '#808080' },
    })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    expect(await hashOf(bomb)).toBeNull();
  });

  it('holds at most its memory allowance: a further upload waits until one is done', async () => {
    const photo = fixture('card-front.jpg');
    const held = await Promise.all(
      Array.from({ length: HASH_MEMORY_BYTES / MAX_UPLOAD_BYTES }, () =>
        startImageHash(MAX_UPLOAD_BYTES),
      ),
    );
    let started = false;
    const next = startImageHash(photo.length).then((hasher) => {
      started = true;
      return hasher;
    });
    await settled();
    expect(started).toBe(false);
    held[0]!.abandon();
    held[0]!.abandon(); // a second abandon gives nothing back twice
    const hasher = await next;
    expect(started).toBe(true);
    hasher.write(photo);
    expect(typeof (await hasher.digest())).toBe('bigint');
    for (const h of held.slice(1)) h.abandon();
    // Everything is free again: the whole allowance can be taken at once.
    await Promise.all(
      Array.from({ length: HASH_MEMORY_BYTES / MAX_UPLOAD_BYTES }, () =>
        startImageHash(MAX_UPLOAD_BYTES).then((h) => h.abandon()),
      ),
    );
  });
});
