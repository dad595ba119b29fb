export interface DetectedType {
  extension: 'jpg' | 'png' | 'gif' | 'webp' | 'heic' | 'pdf';
  contentType: string;
  kind: 'image' | 'pdf';
}

const startsWith = (bytes: Buffer, signature: number[] | string, offset = 0) => {
  const expected =
    typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature);
  return (
    bytes.length >= offset + expected.length &&
    bytes.subarray(offset, offset + expected.length).equals(expected)
  );
};

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/**
 * What a file is, from its first bytes (never its name or declared type): JPEG, PNG, GIF, WebP,
 * HEIC or PDF. Anything else, SVG and HTML included, is null.
 */
export function detectFileType(bytes: Buffer): DetectedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff]))
    return { extension: 'jpg', contentType: 'image/jpeg', kind: 'image' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { extension: 'png', contentType: 'image/png', kind: 'image' };
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a'))
    return { extension: 'gif', contentType: 'image/gif', kind: 'image' };
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8))
    return { extension: 'webp', contentType: 'image/webp', kind: 'image' };
  if (startsWith(bytes, 'ftyp', 4) && HEIF_BRANDS.has(bytes.subarray(8, 12).toString('latin1')))
    return { extension: 'heic', contentType: 'image/heic', kind: 'image' };
  if (startsWith(bytes, '%PDF-'))
    return { extension: 'pdf', contentType: 'application/pdf', kind: 'pdf' };
  return null;
}
