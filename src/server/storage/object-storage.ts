import type { Readable } from 'node:stream';
import { UPLOAD_EXTENSIONS } from '../../shared/upload-types';

export interface StoredObject {
  body: Readable;
  size: number;
}

/**
 * Where uploaded files live. Keys look like `cards/<uuid>.jpg`; never a user-supplied name.
 * Bodies are streams both ways: a 10 MB photo is never held whole in memory.
 */
export interface ObjectStorage {
  /**
   * Stores `body` under `key`. When the stream fails (the upload broke off, or was refused),
   * nothing is left behind and the stream's error is thrown.
   */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** The object, or null when there is no such object. */
  get(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /** Every object, with when it was written (the sweep removes files no row knows). */
  list(): AsyncIterable<{ key: string; lastModified: Date }>;
  /** Throws when the storage cannot be used (readiness). */
  check(): Promise<void>;
  /**
   * The object's file on this machine's disk, for a storage that keeps one (local disk): a card
   * photo's hash is then made from it after the answer, instead of from bytes held in memory
   * (decision 087). Storages that keep nothing locally (S3) leave it out.
   */
  filePath?(key: string): string;
}

/** A key is a folder and a file name of safe characters; nothing that could climb out. */
/** The folders objects live in: card photos, chat files, identity documents. */
export const OBJECT_FOLDERS = ['cards', 'chat', 'verification'] as const;

/** An uploaded file's key: what `/objects/<key>` may serve, through the uploads table's rules. */
export const UPLOAD_KEY_PATTERN = new RegExp(
  `^(${OBJECT_FOLDERS.join('|')})/[0-9a-f-]{36}\\.(${UPLOAD_EXTENSIONS.join('|')})$`,
);

/** A customer's data export (decision 083): served only by its own download route. */
export const exportKey = (id: string) => `exports/${id}.zip`;
const EXPORT_KEY_PATTERN = /^exports\/[0-9a-f-]{36}\.zip$/;

/** A payout method's statement finance reconciled (issue 39): kept, never served. */
export const statementKey = (id: string) => `statements/${id}.csv`;
const STATEMENT_KEY_PATTERN = /^statements\/[0-9a-f-]{36}\.csv$/;

/** Every key the storage holds: uploads, exports and reconciled statements. */
export const OBJECT_KEY_PATTERN = new RegExp(
  `${UPLOAD_KEY_PATTERN.source}|${EXPORT_KEY_PATTERN.source}|${STATEMENT_KEY_PATTERN.source}`,
);
