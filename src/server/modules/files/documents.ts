import { Readable } from 'node:stream';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import { type Keyring, openDocument, sealDocument, sealedDocumentKeyId } from '../../encryption';
import type { ObjectStorage, StoredObject } from '../../storage/object-storage';

/**
 * Identity documents at rest (issue 22, item 6; decision 074): stored sealed with the data key, so
 * a copy of the bucket alone shows no passport. A document is at most 10 MB and sealed whole
 * (GCM checks every byte before one is used); photos of cards are not documents and stay as
 * they are, streamed.
 */
const PURPOSE = 'verification.document';

/** A stream's bytes in one buffer: a document is at most 10 MB. */
export async function whole(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The sealed bytes to store for a document, once its checks have passed. */
export const sealedDocumentBody = (keyring: Keyring, plain: Buffer) =>
  Readable.from([sealDocument(keyring, PURPOSE, plain)]);

/** A stored document's own bytes; one stored before sealing began is answered as it is. */
export async function openStoredDocument(keyring: Keyring, stored: StoredObject) {
  const bytes = await whole(stored.body);
  return sealedDocumentKeyId(bytes) === null ? bytes : openDocument(keyring, PURPOSE, bytes);
}

/**
 * keys:rotate's step for documents (and, with `onlyClear`, every start's): each stored document
 * not sealed under the current key is sealed again under it. Each is read to see its key, so a
 * run interrupted goes on where it stopped; documents are few (deleted 90 days after decision).
 */
export async function resealDocuments(
  db: Db,
  storage: ObjectStorage,
  keyring: Keyring,
  { onlyClear = false } = {},
): Promise<number> {
  const rows = await db
    .select({ key: uploads.key, contentType: uploads.contentType })
    .from(uploads)
    .where(and(eq(uploads.kind, 'verification'), isNull(uploads.removedAt)));
  let done = 0;
  for (const row of rows) {
    const stored = await storage.get(row.key);
    if (!stored) continue;
    const bytes = await whole(stored.body);
    const keyId = sealedDocumentKeyId(bytes);
    if (keyId === keyring.current.id || (onlyClear && keyId !== null)) continue;
    const plain = keyId === null ? bytes : openDocument(keyring, PURPOSE, bytes);
    await storage.put(
      row.key,
      Readable.from([sealDocument(keyring, PURPOSE, plain)]),
      row.contentType,
    );
    done++;
  }
  return done;
}
