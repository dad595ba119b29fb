import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  OBJECT_FOLDERS,
  OBJECT_KEY_PATTERN,
  type ObjectStorage,
  type StoredObject,
} from './object-storage';

/** A partly written file older than this was left by a crash. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Bytes written to a file at a time. An upload arrives in the socket's reads (64 KB at most), and
 * each write wakes one of libuv's threads, which on two busy cores takes the event loop's core
 * from it for a while: the reads are gathered into fewer, larger writes.
 */
const WRITE_BYTES = 256 * 1024;

async function* gathered(body: AsyncIterable<Buffer>) {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of body) {
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes < WRITE_BYTES) continue;
    yield held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
    held = [];
    heldBytes = 0;
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
}

/** Files on local disk under DATA_DIR/objects, outside any public folder. */
export class LocalDiskStorage implements ObjectStorage {
  constructor(private readonly root: string) {}

  filePath(key: string): string {
    if (!OBJECT_KEY_PATTERN.test(key)) throw new Error(`Invalid object key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const file = this.filePath(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    const out = createWriteStream(temp, { mode: 0o600 });
    try {
      await pipeline(body, gathered, out);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      // A body that fails at once can end the pipeline before the file is even opened; the
      // stream then creates it on its way to closing: removed again once it has closed.
      if (!out.closed) out.once('close', () => void rm(temp, { force: true }));
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const file = this.filePath(key);
    try {
      const { size } = await stat(file);
      return { body: createReadStream(file), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.filePath(key), { force: true });
  }

  /** Every stored file; temporary files a crash left behind are removed on the way. */
  async *list(): AsyncIterable<{ key: string; lastModified: Date }> {
    for (const folder of OBJECT_FOLDERS) {
      let names: string[];
      try {
        names = await readdir(path.join(this.root, folder));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      for (const name of names) {
        const file = path.join(this.root, folder, name);
        const info = await stat(file).catch(() => null);
        if (!info?.isFile()) continue;
        if (name.endsWith('.tmp')) {
          if (Date.now() - info.mtimeMs > STALE_TEMP_MS) await rm(file, { force: true });
          continue;
        }
        const key = `${folder}/${name}`;
        if (OBJECT_KEY_PATTERN.test(key)) yield { key, lastModified: info.mtime };
      }
    }
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root);
  }
}
