import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../../src/server/storage/local-disk-storage';
import type { ObjectStorage } from '../../src/server/storage/object-storage';
import { PART_SIZE, S3Storage } from '../../src/server/storage/s3-storage';
import { type S3TestServer, startS3Server } from './s3-server';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

interface Opened {
  storage: ObjectStorage;
  /** Makes the storage unusable: the S3 server stops; the folder is replaced by a file. */
  breakIt(): Promise<void>;
  close(): Promise<void>;
}

const backends: { name: string; open(): Promise<Opened> }[] = [
  {
    name: 'local disk',
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'cb-storage-'));
      return {
        storage: new LocalDiskStorage(path.join(dir, 'objects')),
        async breakIt() {
          rmSync(dir, { recursive: true, force: true });
          writeFileSync(dir, 'not a folder');
        },
        async close() {
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'S3 (s3rver on 127.0.0.1)',
    async open() {
      const server = await startS3Server();
      return {
        storage: new S3Storage(server.config),
        breakIt: () => server.stop(),
        close: () => server.stop(),
      };
    },
  },
];

const cardKey = (ext = 'jpg') => `cards/${randomUUID()}.${ext}`;

/**
 * `total` random bytes in 64 KB chunks, made as they are read (never held whole), failing with
 * `failWith` once `failAt` bytes have gone. `read()` tells how far the reader has got.
 */
function source(total: number, options: { failAt?: number; failWith?: Error } = {}) {
  const hash = createHash('sha256');
  let read = 0;
  async function* chunks() {
    while (read < total) {
      if (options.failAt !== undefined && read >= options.failAt) throw options.failWith;
      const chunk = randomBytes(Math.min(CHUNK, total - read));
      hash.update(chunk);
      read += chunk.length;
      yield chunk;
    }
  }
  return {
    body: Readable.from(chunks(), { objectMode: false }),
    read: () => read,
    sha256: () => hash.digest('hex'),
  };
}

async function digest(body: Readable) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

async function keysOf(storage: ObjectStorage) {
  const keys: string[] = [];
  for await (const object of storage.list()) keys.push(object.key);
  return keys.sort();
}

describe.each(backends)('object storage on $name', (backend) => {
  let opened: Opened;
  let storage: ObjectStorage;
  beforeEach(async () => {
    opened = await backend.open();
    storage = opened.storage;
  });
  afterEach(() => opened.close());

  it.each([
    ['a small body', 1000],
    ['exactly one 5 MB part', PART_SIZE],
    ['a 12 MB body streamed in 64 KB chunks', 12 * MB],
  ])('put then get: %s comes back whole, with its size', async (_name, size) => {
    const key = cardKey();
    const sent = source(size);
    await storage.put(key, sent.body, 'image/jpeg');
    const stored = await storage.get(key);
    expect(stored?.size).toBe(size);
    expect(await digest(stored!.body)).toEqual({ size, sha256: sent.sha256() });
  });

  it('get of a key that was never stored is null', async () => {
    expect(await storage.get(cardKey())).toBeNull();
  });

  it('refuses keys that are not a folder and a server-made name', async () => {
    for (const key of ['../etc/passwd', 'cards/../../x.jpg', 'cards/card.jpg', 'other/x.jpg']) {
      await expect(storage.get(key)).rejects.toThrow('Invalid object key');
      await expect(storage.put(key, Readable.from(['x']), 'image/jpeg')).rejects.toThrow(
        'Invalid object key',
      );
      await expect(storage.delete(key)).rejects.toThrow('Invalid object key');
    }
  });

  it('delete removes the object, and deleting again or a missing key is no error', async () => {
    const key = cardKey('png');
    await storage.put(key, source(1000).body, 'image/png');
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
    await expect(storage.delete(cardKey())).resolves.toBeUndefined();
  });

  it('list yields every object of every folder with when it was written', async () => {
    expect(await keysOf(storage)).toEqual([]);
    const before = Date.now() - 2000;
    const keys = [
      cardKey('jpg'),
      cardKey('png'),
      `chat/${randomUUID()}.pdf`,
      // Identity documents too: the sweep and the backup read storage through list().
      `verification/${randomUUID()}.jpg`,
    ];
    for (const key of keys) await storage.put(key, source(2000).body, 'image/jpeg');
    await storage.delete(keys[1]!);
    const listed: { key: string; lastModified: Date }[] = [];
    for await (const object of storage.list()) listed.push(object);
    expect(listed.map((o) => o.key).sort()).toEqual([keys[0], keys[2], keys[3]].sort());
    for (const { lastModified } of listed) {
      expect(lastModified).toBeInstanceOf(Date);
      expect(lastModified.getTime()).toBeGreaterThan(before);
      expect(lastModified.getTime()).toBeLessThan(Date.now() + 2000);
    }
  });

  it.each([
    ['before the first part is full', 1 * MB],
    ['after the first part was sent', 7 * MB],
  ])('a body that fails %s: put throws its error and leaves nothing', async (_when, failAt) => {
    const key = cardKey();
    const failure = new Error('the upload broke off');
    const sent = source(12 * MB, { failAt, failWith: failure });
    await expect(storage.put(key, sent.body, 'image/jpeg')).rejects.toBe(failure);
    expect(await storage.get(key)).toBeNull();
    expect(await keysOf(storage)).toEqual([]);
  });

  it('check passes while the storage works and fails, naming why, once it does not', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
    await opened.breakIt();
    await expect(storage.check()).rejects.toThrow(
      backend.name === 'local disk'
        ? /ENOTDIR|EEXIST/
        : /^S3 bucket "cardbridge-test" at http:\/\/127\.0\.0\.1:\d+ is not usable: ECONNREFUSED$/,
    );
  });
});

describe('S3 storage only', () => {
  let server: S3TestServer;
  let storage: S3Storage;
  let raw: S3Client;
  beforeEach(async () => {
    server = await startS3Server();
    storage = new S3Storage(server.config);
    raw = new S3Client({ ...server.config });
  });
  afterEach(async () => {
    raw.destroy();
    await server.stop();
  });

  it('stores the object under exactly the key given, with its content type', async () => {
    const key = `chat/${randomUUID()}.pdf`;
    await storage.put(key, source(3000).body, 'application/pdf');
    const listed = await raw.send(
      new ListObjectsV2Command({ Bucket: server.config.bucket, Prefix: '' }),
    );
    expect(listed.Contents?.map((o) => o.Key)).toEqual([key]);
    const head = await raw.send(new HeadObjectCommand({ Bucket: server.config.bucket, Key: key }));
    expect(head.ContentType).toBe('application/pdf');
    expect(head.ContentLength).toBe(3000);
  });

  it('streams: part 1 is sent before the body is read past it, never the whole file first', async () => {
    const sent = source(12 * MB);
    let readWhenPart1Arrived: number | undefined;
    server.http.on('request', (request: IncomingMessage) => {
      if (/[?&]partNumber=1(&|$)/.test(request.url ?? '')) readWhenPart1Arrived ??= sent.read();
    });
    await storage.put(cardKey(), sent.body, 'image/jpeg');
    expect(readWhenPart1Arrived).toBeGreaterThanOrEqual(PART_SIZE);
    // At most the part and what the stream's small buffer read ahead of it.
    expect(readWhenPart1Arrived).toBeLessThanOrEqual(PART_SIZE + 4 * CHUNK);
    expect(
      server.requests.filter((r) => r.startsWith('PUT ') && r.includes('partNumber=')),
    ).toHaveLength(3);
  });

  it('a body that fails after part 1 started a multipart upload: nothing is completed', async () => {
    const failure = new Error('refused mid-stream');
    const key = cardKey();
    const sent = source(12 * MB, { failAt: 7 * MB, failWith: failure });
    await expect(storage.put(key, sent.body, 'image/jpeg')).rejects.toBe(failure);
    expect(server.requests.some((r) => r.startsWith('POST ') && r.includes('uploads'))).toBe(true);
    expect(server.requests.some((r) => r.startsWith('POST ') && r.includes('uploadId='))).toBe(
      false,
    );
    // The multipart upload is aborted (s3rver itself cannot abort one: S3 does).
    expect(server.requests.some((r) => r.startsWith('DELETE ') && r.includes('uploadId='))).toBe(
      true,
    );
  });

  it('lists only the two folders of server-made names, not other keys in the bucket', async () => {
    const key = cardKey();
    await storage.put(key, source(10).body, 'image/jpeg');
    for (const other of ['notes.txt', 'cards/readme.txt', 'backup/cards/x.jpg']) {
      await raw.send(new PutObjectCommand({ Bucket: server.config.bucket, Key: other, Body: 'x' }));
    }
    expect(await keysOf(storage)).toEqual([key]);
  });

  it('a missing bucket is an error, not a missing file, and check names it', async () => {
    const elsewhere = new S3Storage({ ...server.config, bucket: 'no-such-bucket' });
    await expect(elsewhere.get(cardKey())).rejects.toThrow();
    await expect(elsewhere.check()).rejects.toThrow(
      /^S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ is not usable: NotFound \(HTTP 404\)$/,
    );
  });

  it('a server that takes the connection but never answers fails check, naming its 5 s limit', async () => {
    let asked = 0;
    const silent = createServer(() => {
      asked += 1;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const stuck = new S3Storage({ ...server.config, endpoint: `http://127.0.0.1:${port}` });
    // The check's own limit ended it (its message names it), after the request was received.
    await expect(stuck.check()).rejects.toThrow(/is not usable: no answer within 5 s$/);
    expect(asked).toBeGreaterThan(0);
    silent.close();
  });

  it('a key the server does not know fails check with the refusal named', async () => {
    const wrong = new S3Storage({
      ...server.config,
      credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong secret' },
    });
    await expect(wrong.check()).rejects.toThrow(/is not usable: Forbidden \(HTTP 403\)$/);
  });
});
