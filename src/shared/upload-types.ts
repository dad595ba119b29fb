/**
 * The files Cardbridge accepts, in one table that every side reads: the server tells a file's
 * type from its first bytes and stores it under that extension (object keys allow exactly these),
 * and the client offers and pre-checks the same types. Pure TypeScript: bytes are a Uint8Array.
 */

/** Bytes at an offset of the file's start; `text` is read as Latin-1. */
type Signature = { at?: number } & ({ bytes: number[] } | { text: string });

interface UploadType {
  extension: string;
  contentType: string;
  kind: 'image' | 'pdf';
  /** The types a browser may declare for such a file (the picker's `accept`). */
  declared: string[];
  /** File names a browser may give such a file without a declared type (HEIC often has none). */
  names: RegExp;
  /** Any one of these lists, all of its signatures matching, identifies the type. */
  signatures: Signature[][];
}

/** ISO base media files (HEIC and HEIF) whose brand is a still image, not a video. */
const HEIF_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'];

export const UPLOAD_TYPES = [
  {
    extension: 'jpg',
    contentType: 'image/jpeg',
    kind: 'image',
    declared: ['image/jpeg'],
    names: /\.jpe?g$/i,
    signatures: [[{ bytes: [0xff, 0xd8, 0xff] }]],
  },
  {
    extension: 'png',
    contentType: 'image/png',
    kind: 'image',
    declared: ['image/png'],
    names: /\.png$/i,
    signatures: [[{ bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }]],
  },
  {
    extension: 'gif',
    contentType: 'image/gif',
    kind: 'image',
    declared: ['image/gif'],
    names: /\.gif$/i,
    signatures: [[{ text: 'GIF87a' }], [{ text: 'GIF89a' }]],
  },
  {
    extension: 'webp',
    contentType: 'image/webp',
    kind: 'image',
    declared: ['image/webp'],
    names: /\.webp$/i,
    signatures: [[{ text: 'RIFF' }, { text: 'WEBP', at: 8 }]],
  },
  {
    extension: 'heic',
    contentType: 'image/heic',
    kind: 'image',
    declared: ['image/heic', 'image/heif'],
    names: /\.hei[cf]$/i,
    signatures: HEIF_BRANDS.map((brand) => [{ text: `ftyp${brand}`, at: 4 }]),
  },
  {
    extension: 'pdf',
    contentType: 'application/pdf',
    kind: 'pdf',
    declared: ['application/pdf'],
    names: /\.pdf$/i,
    signatures: [[{ text: '%PDF-' }]],
  },
] as const satisfies readonly UploadType[];

export type DetectedType = (typeof UPLOAD_TYPES)[number];
export type UploadExtension = DetectedType['extension'];

export const UPLOAD_EXTENSIONS: readonly UploadExtension[] = UPLOAD_TYPES.map((t) => t.extension);

/** How many of a file's first bytes `detectUploadType` needs. */
export const SIGNATURE_BYTES = 16;

/** The refusal of any other file, on every upload endpoint. */
export const NOT_ALLOWED_TYPE =
  'Only images (JPEG, PNG, WebP, GIF, HEIC) and PDF files are allowed';

/** The file picker's `accept` attribute. */
export const ACCEPTED_UPLOAD_TYPES = UPLOAD_TYPES.flatMap((t) => t.declared).join(',');

function matches(head: Uint8Array, signature: Signature) {
  const at = signature.at ?? 0;
  const expected =
    'bytes' in signature
      ? signature.bytes
      : Array.from(signature.text, (character) => character.charCodeAt(0));
  return head.length >= at + expected.length && expected.every((byte, i) => head[at + i] === byte);
}

/**
 * What a file is, from its first bytes (never its name or declared type). Anything not in the
 * table, SVG and HTML included, is null.
 */
export function detectUploadType(head: Uint8Array): DetectedType | null {
  return (
    UPLOAD_TYPES.find((type) =>
      type.signatures.some((all: readonly Signature[]) => all.every((s) => matches(head, s))),
    ) ?? null
  );
}

/**
 * Whether a picked file may be one of the table's types, by what the browser says of it: a quick
 * check before sending. The server decides by the bytes.
 */
export function mayBeAcceptedFile(file: { name: string; type: string }): boolean {
  return UPLOAD_TYPES.some(
    (t) => (t.declared as readonly string[]).includes(file.type) || t.names.test(file.name),
  );
}

/** Where a chat or ticket attachment uploaded here is served: `/objects/chat/<uuid>.<ext>`. */
export const CHAT_OBJECT_PATH = new RegExp(
  `^/objects/chat/[0-9a-f-]{36}\\.(${UPLOAD_EXTENSIONS.join('|')})$`,
);
