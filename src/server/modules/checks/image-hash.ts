import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { ObjectStorage } from '../../storage/object-storage';

// One image at a time, without libvips' cache: the hash needs a 9 × 8 thumbnail, not speed.
sharp.cache(false);
sharp.concurrency(1);

/** Larger images (a decompression bomb) are not decoded: the hash is left out. */
const MAX_PIXELS = 50_000_000;

/**
 * A 64-bit difference hash (dHash) of an image: shrunk to 9 × 8 grey pixels, each bit says whether
 * a pixel is brighter than its right-hand neighbour. A re-encoded, resized or slightly re-lit copy
 * keeps almost every bit; another photo differs in about half. Orientation from EXIF is applied
 * first, so a photo turned by its metadata hashes like the upright one.
 */
async function differenceHash(input: string | Buffer): Promise<bigint> {
  const pixels = await sharp(input, { limitInputPixels: MAX_PIXELS, sequentialRead: true })
    .rotate()
    .greyscale()
    .resize(9, 8, { fit: 'fill' })
    .raw()
    .toBuffer();
  let hash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      hash = (hash << 1n) | (pixels[y * 9 + x]! > pixels[y * 9 + x + 1]! ? 1n : 0n);
    }
  }
  // PostgreSQL's bigint is signed.
  return BigInt.asIntN(64, hash);
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The hash of a stored image, or null when it cannot be decoded (a PDF, a corrupt or huge file).
 * Hashes are made one at a time, from the file itself on local disk (libvips reads only what it
 * needs) or from the object's bytes in a bucket.
 */
export function storedImageHash(storage: ObjectStorage, key: string): Promise<bigint | null> {
  const run = async () => {
    try {
      const local = storage.localPath?.(key);
      if (local) return await differenceHash(local);
      const object = await storage.get(key);
      return object ? await differenceHash(await buffer(object.body)) : null;
    } catch {
      return null;
    }
  };
  const next = queue.then(run, run);
  queue = next;
  return next;
}
