import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config';
import {
  OBJECT_FOLDERS,
  OBJECT_KEY_PATTERN,
  type ObjectStorage,
  type StoredObject,
} from './object-storage';

/**
 * Bytes held per upload: S3 needs each request's length before its body, so a stream of unknown
 * length goes up in parts of this size, the smallest S3 accepts (docs/decisions/025).
 */
export const PART_SIZE = 5 * 1024 * 1024;
/** How long check() waits for the bucket to answer. */
const CHECK_TIMEOUT_MS = 5000;

/**
 * Files in an S3-compatible bucket, under the same keys LocalDiskStorage uses (`cards/<uuid>.jpg`).
 * Objects are written without an ACL, so they are as private as the bucket; the app reads them
 * and serves them itself, and never hands out a bucket URL.
 */
export class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly where: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    // The origin only: a user:password in the URL never reaches a message.
    const at = config.endpoint ? new URL(config.endpoint).origin : `AWS ${config.region}`;
    this.where = `S3 bucket "${config.bucket}" at ${at}`;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // A bucket host that swallows packets fails the request instead of holding it forever.
      requestHandler: { connectionTimeout: CHECK_TIMEOUT_MS },
    });
  }

  private checked(key: string): string {
    if (!OBJECT_KEY_PATTERN.test(key)) throw new Error(`Invalid object key: ${key}`);
    return key;
  }

  /**
   * Streams `body` up as it arrives: one PutObject when it ends within the first part, else a
   * multipart upload, one part at a time (queueSize 1, so nothing is read ahead of the part being
   * sent). A failure aborts the multipart upload; nothing becomes visible under `key` unless the
   * whole body arrived.
   */
  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.checked(key), Body: body, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: 1,
    });
    // The stream's own error is what the caller decides by (a refused upload answers 413 or 400),
    // even when aborting the multipart upload fails in turn.
    let sourceError: unknown;
    const onError = (error: unknown) => {
      sourceError ??= error;
    };
    body.on('error', onError);
    try {
      await upload.done();
    } catch (error) {
      throw sourceError ?? error;
    } finally {
      body.off('error', onError);
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.checked(key) }),
      );
      return { body: object.Body as Readable, size: object.ContentLength ?? 0 };
    } catch (error) {
      // Only a missing object is "no such file"; a missing bucket or a refusal is an error.
      if ((error as Error).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  /** S3 answers a delete of a missing object with success too. */
  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.bucket, Key: this.checked(key) }),
    );
  }

  async *list(): AsyncIterable<{ key: string; lastModified: Date }> {
    for (const folder of OBJECT_FOLDERS) {
      const pages = paginateListObjectsV2(
        { client: this.client },
        { Bucket: this.bucket, Prefix: `${folder}/` },
      );
      for await (const page of pages) {
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && OBJECT_KEY_PATTERN.test(object.Key)) {
            yield { key: object.Key, lastModified: object.LastModified };
          }
        }
      }
    }
  }

  /** Throws with the bucket and the reason named when the bucket cannot be reached or used. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`${this.where} is not usable: ${reasonOf(error)}`, { cause: error });
    }
  }
}

/**
 * A one-line reason: S3's error name and the HTTP status (a HEAD answer has no body to name it:
 * the status's own name then), the network error's code, or the time-out.
 */
function reasonOf(error: unknown): string {
  const e = error as {
    name?: string;
    code?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = e.$metadata?.httpStatusCode;
  if (status) {
    const name = e.name && e.name !== 'Unknown' ? e.name : STATUS_CODES[status];
    return `${name} (HTTP ${status})`;
  }
  if (e.name === 'AbortError') return `no answer within ${CHECK_TIMEOUT_MS / 1000} s`;
  return e.code ?? (e.message || e.name || String(error));
}
