/** Where uploaded files live. Keys look like `cards/<uuid>.jpg`; never a user-supplied name. */
export interface ObjectStorage {
  put(key: string, body: Buffer): Promise<void>;
  /** The file's bytes, or null when there is no such object. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

/** A key is a folder and a file name of safe characters; nothing that could climb out. */
export const OBJECT_KEY_PATTERN = /^(cards|chat)\/[0-9a-f-]{36}\.(jpg|png|gif|webp|heic|pdf)$/;
