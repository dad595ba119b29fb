import sharp from 'sharp';

/**
 * A PNG of `width` × `height` pixels of noise drawn from `seed`: an image no other test makes, so
 * no automated check flags it as a copy. The same seed makes the same image.
 */
export function noiseImage(seed: number, width = 96, height = 64): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = x >> 23;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
