import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  ACTIVE_PDF,
  HEIC_DOCUMENT,
  TOO_MANY_PIXELS,
  UNREADABLE_IMAGE,
  UNREADABLE_PDF,
} from '../../src/server/modules/files/document-checks';
import { identityBody, setUpAppWithStaff } from './builders';
import { as, fixture, multipart, type SignedIn, signUp } from './helpers';

/**
 * Identity documents are decoded before they are kept (issue 43, item 8; decision 111). Every
 * file here is made by the test: the polyglot, the huge JPEG header, the PDFs (with pdf-lib).
 */
const { t, staff } = setUpAppWithStaff();

const upload = (who: SignedIn, bytes: Buffer, name: string, type: string) =>
  as(t.app, who, {
    method: 'POST',
    url: '/api/upload-verification-document',
    ...multipart(bytes, name, type),
  });

async function uploaded(who: SignedIn, bytes: Buffer, name: string, type: string) {
  const response = await upload(who, bytes, name, type);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().objectPath as string;
}

/** Submits `document` for a level-1 check, then fetches it as staff: the bytes as stored. */
async function storedAs(who: SignedIn, document: string) {
  const selfie = await uploaded(who, fixture('card-front.jpg'), 'selfie.jpg', 'image/jpeg');
  const submitted = await as(t.app, who, {
    method: 'POST',
    url: '/api/verification',
    payload: identityBody([document], selfie),
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
  const served = await as(t.app, staff, { method: 'GET', url: document });
  expect(served.statusCode).toBe(200);
  return served.rawPayload;
}

const storedFiles = () => {
  try {
    return readdirSync(path.join(t.config.dataDir, 'objects', 'verification')).length;
  } catch {
    return 0;
  }
};

/** `jpeg` with its frame header (SOF) saying `width` × `height`. */
function withDimensions(jpeg: Buffer, width: number, height: number) {
  const copy = Buffer.from(jpeg);
  for (let at = 2; copy[at] === 0xff; at += 2 + copy.readUInt16BE(at + 2)) {
    const marker = copy[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) {
      copy.writeUInt16BE(height, at + 5);
      copy.writeUInt16BE(width, at + 7);
      return copy;
    }
  }
  throw new Error('no frame header');
}

/** `jpeg` with a comment segment holding `text` right after its start marker. */
function withComment(jpeg: Buffer, text: string) {
  const comment = Buffer.from(text, 'latin1');
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(comment.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, comment, jpeg.subarray(2)]);
}

const HTML = '<html><body><script>fetch("/api/auth/user")</script></body></html>';

/** A one-page PDF, changed by `change` before it is saved. */
async function pdfWith(change: (pdf: PDFDocument) => void | Promise<void>, objectStreams = true) {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  await change(pdf);
  return Buffer.from(await pdf.save({ useObjectStreams: objectStreams }));
}

const javaScriptAction = (pdf: PDFDocument) =>
  pdf.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') });

describe('identity document photos', () => {
  it('refuses a JPEG header followed by HTML, and keeps nothing', async () => {
    const who = await signUp(t.app);
    const before = storedFiles();
    const polyglot = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
      Buffer.from(HTML),
    ]);
    const response = await upload(who, polyglot, 'id.jpg', 'image/jpeg');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: UNREADABLE_IMAGE, error: UNREADABLE_IMAGE });
    expect(storedFiles()).toBe(before);
  });

  it('refuses a JPEG declaring 60000 × 60000 pixels before decoding it', async () => {
    const who = await signUp(t.app);
    const huge = withDimensions(fixture('card-front.jpg'), 60_000, 60_000);
    const response = await upload(who, huge, 'id.jpg', 'image/jpeg');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(TOO_MANY_PIXELS);
  });

  it('refuses a HEIC photo, which cannot be decoded here', async () => {
    const who = await signUp(t.app);
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic'),
      Buffer.alloc(64),
    ]);
    const response = await upload(who, heic, 'id.heic', 'image/heic');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(HEIC_DOCUMENT);
  });

  it('stores a real photo re-encoded: upright, without its metadata or anything hidden in it', async () => {
    const who = await signUp(t.app);
    // 40 × 20 pixels, its EXIF saying "turn a quarter", HTML in a comment segment.
    const photo = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#2a6' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const sent = withComment(photo, HTML);
    const stored = await storedAs(who, await uploaded(who, sent, 'id.jpg', 'image/jpeg'));
    expect(stored.includes('<script')).toBe(false);
    const metadata = await sharp(stored).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 20, height: 40 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
  });
});

describe('identity document PDFs', () => {
  it('refuses PDFs with scripts, actions, attached files or forms that run', async () => {
    const who = await signUp(t.app);
    const before = storedFiles();
    const script = await pdfWith((pdf) => {
      pdf.catalog.set(
        PDFName.of('Names'),
        pdf.context.obj({ JavaScript: { Names: [PDFString.of('a'), javaScriptAction(pdf)] } }),
      );
    }, false);
    const cases: [string, Buffer][] = [
      [
        '/OpenAction running JavaScript, in an object stream',
        await pdfWith((pdf) =>
          pdf.catalog.set(PDFName.of('OpenAction'), pdf.context.register(javaScriptAction(pdf))),
        ),
      ],
      [
        'a page action (/AA) launching a program',
        await pdfWith((pdf) =>
          pdf
            .getPage(0)
            .node.set(PDFName.of('AA'), pdf.context.obj({ O: { S: 'Launch', F: 'calc.exe' } })),
        ),
      ],
      [
        'an attached file',
        await pdfWith((pdf) =>
          pdf.attach(Buffer.from(HTML), 'page.html', { mimeType: 'text/html' }),
        ),
      ],
      [
        'an XFA form',
        await pdfWith((pdf) =>
          pdf.catalog.set(
            PDFName.of('AcroForm'),
            pdf.context.obj({ Fields: [], XFA: PDFString.of('<xdp/>') }),
          ),
        ),
      ],
      // The same names written with an escape (#53 is S): a reader reads them as JavaScript, JS.
      [
        'JavaScript written /Java#53cript',
        Buffer.from(
          script
            .toString('latin1')
            .replaceAll('/JavaScript', '/Java#53cript')
            .replaceAll('/JS', '/J#53'),
          'latin1',
        ),
      ],
    ];
    for (const [label, bytes] of cases) {
      const response = await upload(who, bytes, 'id.pdf', 'application/pdf');
      expect(response.statusCode, label).toBe(400);
      expect(response.json(), label).toEqual({ message: ACTIVE_PDF, error: ACTIVE_PDF });
    }
    expect(storedFiles()).toBe(before);
  });

  it('refuses a PDF it cannot read through: encrypted, without pages, or broken', async () => {
    const who = await signUp(t.app);
    const plain = (await pdfWith(() => {}, false)).toString('latin1');
    const encrypted = plain.replace(
      /trailer\s*<</,
      'trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >>',
    );
    expect(encrypted).not.toBe(plain);
    const empty = await PDFDocument.create();
    for (const bytes of [
      Buffer.from(encrypted, 'latin1'),
      Buffer.from(await empty.save({ addDefaultPage: false })),
      Buffer.from('%PDF-1.7\nnot really a document'),
    ]) {
      const response = await upload(who, bytes, 'id.pdf', 'application/pdf');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(UNREADABLE_PDF);
    }
  });

  it('stores a plain PDF as it was parsed, without what follows its end', async () => {
    const who = await signUp(t.app);
    const sent = Buffer.concat([fixture('purchase-receipt.pdf'), Buffer.from(`\n${HTML}\n`)]);
    const stored = await storedAs(who, await uploaded(who, sent, 'id.pdf', 'application/pdf'));
    expect(stored.includes('<script')).toBe(false);
    expect((await PDFDocument.load(stored)).getPageCount()).toBe(1);
  });
});
