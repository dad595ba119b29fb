import { createHash } from 'node:crypto';

export interface CachedResponse {
  /** The versions of the topics the answer depends on, when it was read. */
  stamp: number;
  etag: string;
  body: string;
  /** Headers the route set that belong to the answer (a list's next-page cursor). */
  headers?: Record<string, string>;
}

/** A strong ETag from the bytes: equal answers match, whichever instance made them. */
export const etagOf = (body: string) =>
  `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/**
 * Serialised answers by account and URL, least recently used first out once their bodies pass
 * `maxBytes` (a miss only costs one query, so the bound is what matters).
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedResponse) {
    this.delete(key);
    if (entry.body.length > this.maxBytes / 100) return; // one answer never crowds out the rest
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.length;
    }
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
