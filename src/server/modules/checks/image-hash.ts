import sharp, { type Sharp } from 'sharp';
import { MAX_UPLOAD_BYTES } from '../../../shared/card-rules';
import { Allowance } from './allowance';

// Without libvips' cache: the hash needs a 9 × 8 thumbnail once, not speed on a second look. One
// libvips thread per image, so the pool below decides how many cores hashing takes.
sharp.cache(false);
sharp.concurrency(1);

/** Larger images (a decompression bomb) are not decoded: the hash is left out. */
export const MAX_PIXELS = 50_000_000;
/**
 * Images decoded at once (docs/decisions/070): one libvips thread each, so two decodes use both
 * cores of the machine this runs on and leave two of libuv's four threads to file writes and bcrypt.
 */
export const DECODERS = 2;
/**
 * Bytes of uploads held for hashing at once: an upload's bytes are kept until its hash is made
 * (sharp decodes from a whole buffer), and an upload waits, unread, until its size fits.
 */
export const HASH_MEMORY_BYTES = 4 * MAX_UPLOAD_BYTES;

const memory = new Allowance(HASH_MEMORY_BYTES);
const decoders = new Allowance(DECODERS);

/** The bytes of one upload on their way to a perceptual hash. */
export interface ImageHasher {
  /** Adds the next bytes of the file (the same chunks that go to storage). */
  write(chunk: Buffer): void;
  /**
   * The hash of every byte written, or null when the file cannot be decoded (a corrupt or huge
   * image). Waits for a free decoder.
   */
  digest(): Promise<bigint | null>;
  /** The upload failed: its bytes are dropped. */
  abandon(): void;
}

/** A decompression bomb is not decoded, nor an image libvips warns about (a truncated JPEG). */
export const DECODING = {
  limitInputPixels: MAX_PIXELS,
  sequentialRead: true,
  failOn: 'warning',
} as const;

/** Runs `decode` when one of the decoders is free (identity documents are decoded here too). */
export async function withDecoder<T>(decode: () => Promise<T>): Promise<T> {
  await decoders.take(1);
  try {
    return await decode();
  } finally {
    decoders.give(1);
  }
}

/** The hash of an image, made when a decoder is free; null when it cannot be decoded. */
const decodedHash = (image: Sharp): Promise<bigint | null> =>
  withDecoder(async () => differenceHash(await thumbnail(image))).catch(() => null);

/**
 * The perceptual hash of a stored file on this machine's disk (decision 087): libvips reads it
 * as it decodes, so nothing is held in memory but the decoder's own lines.
 */
export const hashImageFile = (file: string) => decodedHash(sharp(file, DECODING));

/**
 * Starts a perceptual hash for an upload of at most `size` bytes, once that much of the hashing
 * memory is free. The bytes go into a sharp instance as they stream past (sharp collects a
 * stream's chunks and decodes them when it ends), so the stored object is never read back: for a
 * storage with no file on this machine (S3).
 */
export async function startImageHash(size: number): Promise<ImageHasher> {
  const reserved = Math.min(Math.max(size, 0), MAX_UPLOAD_BYTES);
  await memory.take(reserved);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    memory.give(reserved);
  };
  const image = sharp(DECODING);
  image.on('error', () => {});
  return {
    write: (chunk) => {
      image.write(chunk);
    },
    async digest() {
      image.end();
      try {
        return await decodedHash(image);
      } finally {
        release();
      }
    },
    abandon() {
      image.destroy();
      release();
    },
  };
}

/**
 * The 9 × 8 grey thumbnail a difference hash compares. Orientation from EXIF is applied first,
 * so a photo turned by its metadata hashes like the upright one.
 */
const thumbnail = (image: Sharp) =>
  image.rotate().greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer();

/**
 * A 64-bit difference hash (dHash): each bit says whether a pixel of the 9 × 8 grey thumbnail is
 * brighter than its right-hand neighbour. A re-encoded, resized or slightly re-lit copy keeps
 * almost every bit; another photo differs in about half.
 */
function differenceHash(pixels: Buffer): bigint {
  let hash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      hash = (hash << 1n) | (pixels[y * 9 + x]! > pixels[y * 9 + x + 1]! ? 1n : 0n);
    }
  }
  // PostgreSQL's bigint is signed.
  return BigInt.asIntN(64, hash);
}
