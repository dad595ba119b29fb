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

/** Files on local disk under DATA_DIR/objects, outside any public folder. */
export class LocalDiskStorage implements ObjectStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!OBJECT_KEY_PATTERN.test(key)) throw new Error(`Invalid object key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    const out = createWriteStream(temp, { mode: 0o600 });
    try {
      await pipeline(body, out);
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
    const file = this.pathOf(key);
    try {
      const { size } = await stat(file);
      return { body: createReadStream(file), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
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
