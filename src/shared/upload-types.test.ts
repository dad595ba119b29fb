import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_UPLOAD_TYPES,
  detectUploadType as detectFileType,
  mayBeAcceptedFile,
  NOT_ALLOWED_TYPE,
  UPLOAD_EXTENSIONS,
} from './upload-types';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );

describe('detectFileType', () => {
  it('recognises the accepted formats by their bytes', () => {
    expect(detectFileType(bytes([0xff, 0xd8, 0xff, 0xe0], 'rest'))?.contentType).toBe('image/jpeg');
    expect(detectFileType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], 'x'))?.extension).toBe(
      'png',
    );
    expect(detectFileType(bytes('GIF89a...'))?.extension).toBe('gif');
    expect(detectFileType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))?.extension).toBe('webp');
    expect(detectFileType(bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0]))?.extension).toBe(
      'heic',
    );
    expect(detectFileType(bytes('%PDF-1.7\n'))).toMatchObject({
      extension: 'pdf',
      contentType: 'application/pdf',
      kind: 'pdf',
    });
  });

  it('refuses everything else, whatever it claims to be', () => {
    expect(detectFileType(bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(detectFileType(bytes('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(detectFileType(bytes('just some text'))).toBeNull();
    expect(detectFileType(bytes([0xff, 0xd8]))).toBeNull();
    expect(detectFileType(Buffer.alloc(0))).toBeNull();
    expect(detectFileType(bytes([0, 0, 0, 0x18], 'ftypisom'))).toBeNull(); // an MP4
  });

  it('tells the same types to the file picker, the quick check and the refusal', () => {
    expect(UPLOAD_EXTENSIONS).toEqual(['jpg', 'png', 'gif', 'webp', 'heic', 'pdf']);
    expect(ACCEPTED_UPLOAD_TYPES.split(',')).toContain('image/heif');
    expect(ACCEPTED_UPLOAD_TYPES).not.toContain('svg');
    for (const name of ['JPEG', 'PNG', 'WebP', 'GIF', 'HEIC', 'PDF']) {
      expect(NOT_ALLOWED_TYPE).toContain(name);
    }
    expect(mayBeAcceptedFile({ name: 'card.jpg', type: 'image/jpeg' })).toBe(true);
    expect(mayBeAcceptedFile({ name: 'IMG_0001.HEIC', type: '' })).toBe(true);
    expect(mayBeAcceptedFile({ name: 'scan.pdf', type: 'application/pdf' })).toBe(true);
    expect(mayBeAcceptedFile({ name: 'logo.svg', type: 'image/svg+xml' })).toBe(false);
    expect(mayBeAcceptedFile({ name: 'photo.bmp', type: 'image/bmp' })).toBe(false);
    expect(mayBeAcceptedFile({ name: 'notes.txt', type: 'text/plain' })).toBe(false);
  });
});
