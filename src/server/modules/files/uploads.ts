import { createHash, randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../../shared/card-rules';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import type { Account } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { detectFileType } from '../../storage/file-type';
import type { ObjectStorage } from '../../storage/object-storage';

export type UploadKind = 'card' | 'chat';
const FOLDERS: Record<UploadKind, string> = { card: 'cards', chat: 'chat' };

export const OBJECTS_PREFIX = '/objects/';
export const NOT_ALLOWED_TYPE =
  'Only images (JPEG, PNG, WebP, GIF, HEIC) and PDF files are allowed';
export const TOO_LARGE = `File is too large. The limit is ${MAX_UPLOAD_BYTES / 1024 / 1024} MB per file.`;

/** Upload endpoints carry their message in `error` too (PRODUCT.md). */
const uploadError = (status: number, message: string) =>
  new HttpError(status, message, undefined, { error: message });

async function readSingleFile(request: FastifyRequest): Promise<Buffer> {
  let part: MultipartFile | undefined;
  try {
    part = await request.file();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      throw uploadError(400, 'Send the file as multipart form data in the field "file"');
    }
    throw error;
  }
  if (part?.fieldname !== 'file') throw uploadError(400, 'No file was sent in the field "file"');
  try {
    // Buffered in memory (at most 10 MB): nothing reaches the disk until the bytes are checked.
    return await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw uploadError(413, TOO_LARGE);
    throw error;
  }
}

/**
 * Reads the one file of a multipart request, checks its bytes, and stores it under a new random
 * name with a row that records its owner. Returns the object path and what kind of file it is.
 */
export async function storeUpload(request: FastifyRequest, account: Account, kind: UploadKind) {
  const body = await readSingleFile(request);
  const type = detectFileType(body);
  if (!type) throw uploadError(400, NOT_ALLOWED_TYPE);

  const key = `${FOLDERS[kind]}/${randomUUID()}.${type.extension}`;
  const storage = request.server.storage;
  await storage.put(key, body);
  try {
    await request.server.db.insert(uploads).values({
      key,
      kind,
      ownerUserId: account.kind === 'user' ? account.id : null,
      ownerAdminId: account.kind === 'admin' ? account.id : null,
      contentType: type.contentType,
      size: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
  } catch (error) {
    await storage.delete(key);
    throw error;
  }
  return { objectPath: `${OBJECTS_PREFIX}${key}`, type };
}

export const keyOfPath = (objectPath: string) =>
  objectPath.startsWith(OBJECTS_PREFIX) ? objectPath.slice(OBJECTS_PREFIX.length) : null;

/**
 * Claims card images for a new transaction inside the caller's database transaction: each must
 * be a card upload of this customer that no transaction uses yet. Returns false otherwise.
 */
export async function claimCardImages(
  db: Db,
  userId: string,
  transactionId: string,
  objectPaths: string[],
) {
  const keys = objectPaths.map(keyOfPath);
  if (keys.some((k) => k === null) || new Set(keys).size !== keys.length) return false;
  const claimed = await db
    .update(uploads)
    .set({ transactionId })
    .where(
      and(
        inArray(uploads.key, keys as string[]),
        eq(uploads.kind, 'card'),
        eq(uploads.ownerUserId, userId),
        isNull(uploads.transactionId),
      ),
    )
    .returning({ id: uploads.id });
  return claimed.length === keys.length;
}

/** Card images uploaded but never used by a transaction are deleted after a day. */
export async function deleteOrphanUploads(db: Db, storage: ObjectStorage, olderThanHours = 24) {
  const orphans = await db
    .delete(uploads)
    .where(
      and(
        eq(uploads.kind, 'card'),
        isNull(uploads.transactionId),
        lt(uploads.createdAt, sql`now() - make_interval(hours => ${olderThanHours})`),
      ),
    )
    .returning({ key: uploads.key });
  for (const { key } of orphans) await storage.delete(key);
  return orphans.length;
}

/**
 * Attaches a chat file to a conversation, inside the caller's database transaction. The file
 * must be a chat upload of the sender and not belong to another conversation. Returns the
 * attachment type the file's bytes decided ('image' or 'other'), or null when refused.
 */
export async function claimChatAttachment(
  db: Db,
  sender: Account,
  conversationUserId: string,
  objectPath: string,
): Promise<'image' | 'other' | null> {
  const key = keyOfPath(objectPath);
  if (!key) return null;
  const [claimed] = await db
    .update(uploads)
    .set({ conversationUserId })
    .where(
      and(
        eq(uploads.key, key),
        eq(uploads.kind, 'chat'),
        sender.kind === 'admin'
          ? eq(uploads.ownerAdminId, sender.id)
          : eq(uploads.ownerUserId, sender.id),
        or(isNull(uploads.conversationUserId), eq(uploads.conversationUserId, conversationUserId)),
      ),
    )
    .returning({ contentType: uploads.contentType });
  if (!claimed) return null;
  return claimed.contentType.startsWith('image/') ? 'image' : 'other';
}

/** Removes every chat file (rows, then bytes); used when staff clear all chats. */
export async function deleteChatUploads(db: Db, storage: ObjectStorage) {
  const removed = await db
    .delete(uploads)
    .where(eq(uploads.kind, 'chat'))
    .returning({ key: uploads.key });
  for (const { key } of removed) await storage.delete(key);
  return removed.length;
}
