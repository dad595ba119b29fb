import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

/** A built client as scripts/finish-client-build.mjs leaves it: each text file pre-compressed. */
const clientDir = mkdtempSync(path.join(tmpdir(), 'cb-client-'));
const INDEX = `<!doctype html><html><body><div id="root"></div>${'<!-- padding -->'.repeat(50)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

function writeWithCopies(file: string, text: string) {
  const full = path.join(clientDir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  writeFileSync(`${full}.br`, brotliCompressSync(text));
  writeFileSync(`${full}.gz`, gzipSync(text));
}

let t: TestApp;
beforeAll(async () => {
  writeWithCopies('index.html', INDEX);
  writeWithCopies('assets/index-abc123.js', SCRIPT);
  t = await createTestApp({ clientDir });
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });

describe('the built client', () => {
  it('sends hashed assets brotli- or gzip-encoded, cached for a year as immutable', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
  });

  it('serves index.html compressed and revalidated, for the root and for app paths', async () => {
    for (const url of ['/', '/history', '/admin/login?x=1']) {
      const res = await get(url, 'br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
    }
    const first = await get('/', 'gzip');
    expect(first.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('still answers API paths with JSON, not the page', async () => {
    const res = await get('/api/nothing-here', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/Not found/);
  });
});
