import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import sharp from 'sharp';
import type { DetectedType } from '../../../shared/upload-types';
import { DECODING, MAX_PIXELS, withDecoder } from '../checks';

/**
 * Identity documents are decoded before they are kept (issue 43, item 8; decision 111): an image
 * is decoded under the card photos' pixel limit and stored re-encoded, so nothing but its pixels
 * survives (no HTML after a JPEG header, no metadata); a PDF is parsed and refused when it holds
 * anything that runs or carries other files, and stored as it was parsed.
 */

export const HEIC_DOCUMENT =
  'HEIC photos cannot be checked. Send the document as a JPEG or PNG photo (on an iPhone: Settings, Camera, Formats, Most Compatible), or as a PDF.';
export const UNREADABLE_IMAGE =
  'This photo could not be read as an image. Send a clear JPEG or PNG photo of the document.';
export const TOO_MANY_PIXELS = `This photo is too large: at most ${MAX_PIXELS / 1_000_000} megapixels. Send a smaller photo of the document.`;
export const UNREADABLE_PDF =
  'This PDF could not be read. Send a photo of the document, or a PDF saved again without a password.';
export const ACTIVE_PDF =
  'This PDF holds scripts, actions or attached files, which we do not accept in identity documents. Send a photo of the document, or print it to a new PDF.';

/** Dictionary keys that make a PDF run something, or carry files or forms that can. */
const ACTIVE_KEYS = new Set([
  'JS',
  'JavaScript',
  'AA',
  'EmbeddedFile',
  'EmbeddedFiles',
  'RichMedia',
  'XFA',
]);
/** Action types that run something or send data out, wherever they appear as a value. */
const ACTIVE_ACTIONS = new Set([
  'JavaScript',
  'Launch',
  'SubmitForm',
  'ImportData',
  'RichMediaExecute',
  'Rendition',
  'GoToE',
  'EmbeddedFile',
]);

/** The bytes to store for an identity document, or why it is refused. */
export async function checkedDocument(
  bytes: Buffer,
  type: DetectedType,
): Promise<{ bytes: Buffer } | { refused: string }> {
  if (type.kind === 'pdf') return checkedPdf(bytes);
  // libvips here has no HEVC decoder: a HEIC photo cannot be decoded, so it cannot be checked.
  if (type.extension === 'heic') return { refused: HEIC_DOCUMENT };
  try {
    // Turned upright by its EXIF orientation, since the metadata does not survive.
    const format = type.extension === 'jpg' ? 'jpeg' : type.extension;
    const image = sharp(bytes, DECODING).rotate().toFormat(format, { quality: 90 });
    return { bytes: await withDecoder(() => image.toBuffer()) };
  } catch (error) {
    const huge = error instanceof Error && /pixel limit/i.test(error.message);
    return { refused: huge ? TOO_MANY_PIXELS : UNREADABLE_IMAGE };
  }
}

async function checkedPdf(bytes: Buffer): Promise<{ bytes: Buffer } | { refused: string }> {
  try {
    const pdf = await PDFDocument.load(bytes, {
      throwOnInvalidObject: true,
      updateMetadata: false,
    });
    if (pdf.getPageCount() === 0) return { refused: UNREADABLE_PDF };
    if (hasActiveContent(pdf)) return { refused: ACTIVE_PDF };
    // Written again from what was parsed and checked: bytes outside its objects (an HTML page
    // after %%EOF, an object hidden where the parser saw none) are not kept.
    const saved = await pdf.save({
      useObjectStreams: false,
      addDefaultPage: false,
      updateFieldAppearances: false,
    });
    return { bytes: Buffer.from(saved) };
  } catch {
    // Broken (a page tree that loops, an object that does not parse), or encrypted: what its
    // objects hold cannot all be read, so it cannot be checked.
    return { refused: UNREADABLE_PDF };
  }
}

/**
 * Whether any object of the PDF (those in object streams included: the parser unpacks them) has
 * an active key or action, or an `OpenAction` that is an action rather than a page to open at.
 * Walked with a stack, not recursion, so a deeply nested object cannot overflow it.
 */
function hasActiveContent(pdf: PDFDocument): boolean {
  const stack: PDFObject[] = pdf.context.enumerateIndirectObjects().map(([, object]) => object);
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (object instanceof PDFName && ACTIVE_ACTIONS.has(object.decodeText())) return true;
    if (object instanceof PDFArray) for (const item of object.asArray()) stack.push(item);
    if (object instanceof PDFStream) stack.push(object.dict);
    if (!(object instanceof PDFDict)) continue;
    for (const [key, value] of object.entries()) {
      const name = key.decodeText();
      if (ACTIVE_KEYS.has(name)) return true;
      if (name === 'OpenAction') {
        const target = value instanceof PDFRef ? pdf.context.lookup(value) : value;
        if (!(target instanceof PDFArray)) return true;
      }
      stack.push(value);
    }
  }
  return false;
}
