import { hash } from 'node:crypto';

export interface CachedResponse {
  /** The versions of the topics the answer depends on, when it was read. */
  stamp: number;
  etag: string;
  /** Headers the route set that belong to the answer (a list's next-page cursor). */
  headers?: Record<string, string>;
}

/**
 * A strong ETag from the bytes: equal answers match, whichever instance made them (and after a
 * restart). One-shot `hash`, with no Hash object per answer (issue 45).
 */
export const etagOf = (body: string) => `"${hash('sha1', body, 'base64url').slice(0, 22)}"`;

/**
 * Answers by account and URL, in two parts (docs/decisions/041). What a poll with a matching
 * If-None-Match needs for its 304, the stamp and the ETag, is kept for every answer (a few dozen
 * bytes each, at most `maxAnswers`). The bodies themselves, which only a poll without that ETag
 * needs (a new tab, another device), are kept least recently used first out once they pass
 * `maxBodyBytes`: a body that is gone costs that poll one query, never a wrong answer.
 */
export class ResponseCache {
  private readonly answers = new Map<string, CachedResponse>();
  private readonly bodies = new Map<string, string>();
  private bodyBytes = 0;

  constructor(
    private readonly maxBodyBytes: number,
    private readonly maxAnswers = 200_000,
  ) {}

  get(key: string): CachedResponse | undefined {
    return this.answers.get(key);
  }

  /** The body of the answer `get` returned, when it is still kept. */
  body(key: string): string | undefined {
    const body = this.bodies.get(key);
    if (body !== undefined) {
      // Most recently used last.
      this.bodies.delete(key);
      this.bodies.set(key, body);
    }
    return body;
  }

  set(key: string, answer: CachedResponse, body: string) {
    this.delete(key);
    this.answers.set(key, answer);
    if (this.answers.size > this.maxAnswers) this.delete(this.answers.keys().next().value!);
    if (body.length > this.maxBodyBytes / 100) return; // one body never crowds out the rest
    this.bodies.set(key, body);
    this.bodyBytes += body.length;
    for (const [oldest, old] of this.bodies) {
      if (this.bodyBytes <= this.maxBodyBytes) break;
      this.bodies.delete(oldest);
      this.bodyBytes -= old.length;
    }
  }

  delete(key: string) {
    this.answers.delete(key);
    const body = this.bodies.get(key);
    if (body === undefined) return;
    this.bodies.delete(key);
    this.bodyBytes -= body.length;
  }

  clear() {
    this.answers.clear();
    this.bodies.clear();
    this.bodyBytes = 0;
  }

  get size() {
    return { answers: this.answers.size, bodies: this.bodies.size, bodyBytes: this.bodyBytes };
  }
}
