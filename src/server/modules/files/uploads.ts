import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import type { MultipartFile } from '@fastify/multipart';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../../shared/card-rules';
import {
  type DetectedType,
  detectUploadType,
  NOT_ALLOWED_TYPE,
  SIGNATURE_BYTES,
} from '../../../shared/upload-types';
import type { Account } from '../../common/account';
import { HttpError } from '../../common/http-error';
import type { Db } from '../../db/client';
import { supportTickets, uploads, verificationSubmissions } from '../../db/schema';
import { loggableError } from '../../plugins/errors';
import { type ObjectStorage, UPLOAD_KEY_PATTERN } from '../../storage/object-storage';
import { Allowance, hashImageFile, type ImageHasher, startImageHash } from '../checks';
import { checkedDocument } from './document-checks';
import { sealedDocumentBody, whole } from './documents';

export type UploadKind = 'card' | 'chat' | 'verification';
/** Identity documents have their own prefix (decision 072), and their own rule (access.ts). */
const FOLDERS: Record<UploadKind, string> = {
  card: 'cards',
  chat: 'chat',
  verification: 'verification',
};

export const OBJECTS_PREFIX = '/objects/';
export const TOO_LARGE = `File is too large. The limit is ${MAX_UPLOAD_BYTES / 1024 / 1024} MB per file.`;
export const UNREADABLE = 'Send one file as multipart form data in the field "file"';

/** Upload endpoints carry their message in `error` too (PRODUCT.md). */
const uploadError = (status: number, message: string) =>
  new HttpError(status, message, undefined, { error: message });

/** A refusal after which the rest of the body is not read: the connection closes. */
class RefusedUpload extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Uploads read at once on an instance (decision 087). Each further one waits, unread, for a turn:
 * sixty bodies read together made every turn of the event loop long, and a health check or a
 * poll waited behind them. When no turn has come back for 2 s (slow senders holding them all),
 * the waiting uploads are read anyway: a few slow senders delay others by 2 s, not for as long
 * as they hold their turns.
 */
const streaming = new Allowance(4, 2000);
/** The turns free now (a test waits for slow senders to hold all four). */
export const freeUploadTurns = () => streaming.available;

/** How long the parser may hold the body back before naming a file. */
const PARSER_STALL_MS = 1000;

/**
 * Resolves with undefined when the multipart parser has stopped reading the body without naming
 * a file: busboy never finishes a part it skips (no field name) once the part outgrows its
 * look-ahead, and holds the request paused, so `request.file()` would wait forever. Before the
 * first file is named the parser has no reason to hold the body back; a slow client is not
 * paused, only slow (the request deadlines deal with that). `stop` ends the watch.
 */
function parserStalled(request: FastifyRequest) {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<undefined>((resolve) => {
    let pausedSince = 0;
    timer = setInterval(() => {
      if (request.raw.readableFlowing !== false) {
        pausedSince = 0;
        return;
      }
      pausedSince ||= Date.now();
      if (Date.now() - pausedSince >= PARSER_STALL_MS) resolve(undefined);
    }, 100);
    timer.unref();
  });
  return { stalled, stop: () => clearInterval(timer) };
}

async function firstFile(request: FastifyRequest): Promise<MultipartFile> {
  let part: MultipartFile | undefined;
  const watch = parserStalled(request);
  try {
    part = await Promise.race([request.file(), watch.stalled]);
  } catch {
    // Not multipart, no boundary, a broken first part: the body cannot be read as an upload.
    throw uploadError(400, UNREADABLE);
  } finally {
    watch.stop();
  }
  if (part?.fieldname !== 'file') throw new RefusedUpload(400, UNREADABLE);
  return part;
}

/**
 * The file's bytes as a stream that checks them on the way: its first bytes must be an image or
 * a PDF, and byte 10 MB + 1 ends it (busboy stops there and flags the file truncated). Size and
 * SHA-256 are counted as the bytes pass; storage is handed one chunk at a time. When `hashImage`
 * asks for it (a card photo), the same chunks also go to a perceptual hash (modules/checks), which
 * keeps them until the file ends and is started before any byte after the first few is read.
 */
async function checkedStream(
  part: MultipartFile,
  hashImage: (type: DetectedType) => Promise<ImageHasher | null>,
) {
  // Busboy stops passing bytes at the limit but would read on to the part's end (the rest of a
  // 100 MB body): end the file at once instead.
  part.file.once('limit', () => part.file.destroy(new RefusedUpload(413, TOO_LARGE)));
  const chunks = part.file[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SIGNATURE_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  const type = detectUploadType(Buffer.concat(head));
  if (!type) throw new RefusedUpload(400, NOT_ALLOWED_TYPE);
  const image = await hashImage(type);

  const hash = createHash('sha256');
  let size = 0;
  const count = (chunk: Buffer) => {
    size += chunk.length;
    hash.update(chunk);
    image?.write(chunk);
    return chunk;
  };
  async function* bytes() {
    for (const chunk of head) yield count(chunk);
    if (!ended) {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        yield count(next.value);
      }
    }
    // The whole body may have been in hand already: the file then ends, marked truncated.
    if (part.file.truncated) throw new RefusedUpload(413, TOO_LARGE);
  }
  return {
    type,
    body: Readable.from(bytes(), { objectMode: false }),
    totals: () => ({ size, sha256: hash.digest('hex') }),
    image,
  };
}

/** An identity document's bytes as they will be stored: decoded and re-encoded, or refused. */
async function documentBytes(file: { type: DetectedType; body: Readable }) {
  const checked = await checkedDocument(await whole(file.body), file.type);
  if ('refused' in checked) throw new RefusedUpload(400, checked.refused);
  return checked.bytes;
}

const isCardPhoto = (kind: UploadKind, type: DetectedType) =>
  kind === 'card' && type.kind === 'image';

/**
 * Card photos get a perceptual hash, to find copies of cards already sold (modules/checks). Where
 * the storage keeps the file on this machine, the hash is made from it once stored (decision 087);
 * otherwise from the bytes on their way to storage (070), and the request's length bounds the
 * file's, so the hash waits for that much of its memory.
 */
function hashCardPhotos(request: FastifyRequest, kind: UploadKind) {
  return async (type: DetectedType) => {
    if (!isCardPhoto(kind, type) || request.server.storage.filePath) return null;
    const length = Number(request.headers['content-length']);
    return startImageHash(Number.isFinite(length) && length > 0 ? length : MAX_UPLOAD_BYTES);
  };
}

/**
 * Reads the one file of a multipart request as it arrives, checks its bytes, and streams it into
 * storage under a new random name, then records its owner in a row. A refused or broken upload
 * leaves no file and no row; a file over 10 MB is refused the moment its 10 MB + 1st byte arrives,
 * and the connection is closed without reading the rest.
 */
export async function storeUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  account: Account,
  kind: UploadKind,
): Promise<{ objectPath: string; type: DetectedType }> {
  const storage = request.server.storage;
  let image: ImageHasher | null = null;
  const turn = await streaming.take(1);
  if (!turn) request.log.info('upload read without a turn: none came back for 2 s');
  try {
    const part = await firstFile(request);
    const file = await checkedStream(part, hashCardPhotos(request, kind));
    image = file.image;
    const key = `${FOLDERS[kind]}/${randomUUID()}.${file.type.extension}`;
    // Identity documents are decoded, checked and sealed before they are stored (decisions 074
    // and 111); other files stream as they come.
    const document = kind === 'verification' ? await documentBytes(file) : null;
    const body = document
      ? sealedDocumentBody(request.server.config.encryption, document)
      : file.body;
    await storage.put(key, body, file.type.contentType);
    const { size, sha256 } = document
      ? { size: document.length, sha256: createHash('sha256').update(document).digest('hex') }
      : file.totals();
    const photo = isCardPhoto(kind, file.type);
    try {
      await request.server.db.insert(uploads).values({
        key,
        kind,
        ownerUserId: account.kind === 'user' ? account.id : null,
        ownerAdminId: account.kind === 'admin' ? account.id : null,
        contentType: file.type.contentType,
        size,
        sha256,
        hashPending: photo,
      });
    } catch (error) {
      await storage.delete(key);
      throw error;
    }
    if (photo) {
      hashAfterAnswer(request, key, image ? image.digest() : hashImageFile(storage.filePath!(key)));
    }
    image = null;
    return { objectPath: `${OBJECTS_PREFIX}${key}`, type: file.type };
  } catch (error) {
    image?.abandon();
    if (error instanceof HttpError) throw error;
    const refused =
      error instanceof RefusedUpload
        ? error
        : isMultipartError(error)
          ? new RefusedUpload(400, UNREADABLE)
          : null;
    if (!refused) throw error;
    refuseAndClose(request, reply);
    throw uploadError(refused.status, refused.message);
  } finally {
    if (turn) streaming.give(1);
  }
}

/** An error of the incoming multipart body (broken off, malformed), not of the server. */
function isMultipartError(error: unknown) {
  const e = error as { code?: string; message?: string };
  return (
    (typeof e?.code === 'string' && e.code.startsWith('FST_')) ||
    /multipart|unexpected end|malformed|part terminated|boundary|aborted|premature/i.test(
      e?.message ?? '',
    )
  );
}

/**
 * Stops reading the request: its remaining bytes (the rest of a 100 MB body) are never read, and
 * the connection closes once the answer is sent.
 */
function refuseAndClose(request: FastifyRequest, reply: FastifyReply) {
  request.raw.unpipe();
  reply.header('Connection', 'close');
}

/** The record of a stored upload, by its object key. */
export async function findUpload(db: Db, key: string) {
  const [upload] = await db.select().from(uploads).where(eq(uploads.key, key));
  return upload;
}

/**
 * Card photos' perceptual hashes being made on this instance, by key (decision 086). The upload
 * is answered once its file and row are stored; the hash, made from the stored file on local disk
 * or from the bytes that passed on their way to S3 (087), is written to the row when it is ready.
 */
const hashing = new Map<string, Promise<void>>();
/** A hash still pending after this long was lost with its instance: nobody waits for it. */
const HASH_LOST_AFTER = '2 minutes';
/** How long a submission waits for its photos' hashes when another instance makes them. */
const HASH_WAIT_MS = 15_000;

function hashAfterAnswer(request: FastifyRequest, key: string, hash: Promise<bigint | null>) {
  const { db } = request.server;
  const done = hash
    .then(async (perceptualHash) => {
      await db
        .update(uploads)
        .set({ perceptualHash, hashPending: false })
        .where(eq(uploads.key, key));
    })
    .catch((error: unknown) =>
      request.log.warn({ err: loggableError(error), key }, 'perceptual hash not stored'),
    )
    .finally(() => hashing.delete(key));
  hashing.set(key, done);
}

/** Every hash being made on this instance, made and written (or failed). */
export async function hashesSettled() {
  await Promise.all(hashing.values());
}

/**
 * Waits until the perceptual hashes of a card's photos are made (decision 086), before the
 * submission's checks compare them: those made on this instance by their promise, those made by
 * another by their row, for up to 15 s. A hash whose instance stopped before writing it is not
 * waited for after 2 minutes; the check then says that photo was not compared.
 */
export async function cardImagesHashed(db: Db, objectPaths: string[]) {
  const keys = objectPaths.map(keyOfPath).filter((key) => key !== null);
  if (keys.length === 0) return;
  await Promise.all(keys.map((key) => hashing.get(key)));
  const deadline = Date.now() + HASH_WAIT_MS;
  for (;;) {
    const [pending] = await db
      .select({ key: uploads.key })
      .from(uploads)
      .where(
        and(
          inArray(uploads.key, keys),
          eq(uploads.hashPending, true),
          sql`${uploads.createdAt} > now() - ${HASH_LOST_AFTER}::interval`,
        ),
      )
      .limit(1);
    if (!pending || Date.now() >= deadline) return;
    await setTimeout(50);
  }
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

/**
 * Files uploaded but never used after a day: card images no transaction claimed, chat
 * attachments never sent in a conversation, and identity documents no verification named. Rows go first, then their files.
 */
export async function deleteOrphanUploads(db: Db, storage: ObjectStorage, olderThanHours = 24) {
  const orphans = await db
    .delete(uploads)
    .where(
      and(
        or(
          and(eq(uploads.kind, 'card'), isNull(uploads.transactionId)),
          // A chat file sent in no conversation and attached to no ticket.
          and(
            eq(uploads.kind, 'chat'),
            isNull(uploads.conversationUserId),
            sql`not exists (select 1 from ${supportTickets} t
                 where t.attachment_url = '/objects/' || ${uploads.key})`,
          ),
          // Identity documents no verification submission names.
          and(
            eq(uploads.kind, 'verification'),
            sql`not exists (select 1 from ${verificationSubmissions} s
                 where '/objects/' || ${uploads.key} = any(s.document_images)
                    or '/objects/' || ${uploads.key} = any(s.proof_images)
                    or s.selfie_image = '/objects/' || ${uploads.key})`,
          ),
        ),
        lt(uploads.createdAt, sql`now() - make_interval(hours => ${olderThanHours})`),
      ),
    )
    .returning({ key: uploads.key });
  for (const { key } of orphans) await storage.delete(key);
  return orphans.length;
}

/**
 * Files in storage that no row knows: what a crash left between writing a file and recording it.
 * Only files older than an hour go, so an upload being recorded right now is never touched.
 */
export async function deleteUnrecordedFiles(
  db: Db,
  storage: ObjectStorage,
  olderThanMs = 3600_000,
) {
  let removed = 0;
  let batch: string[] = [];
  const sweep = async () => {
    const known = new Set(
      (await db.select({ key: uploads.key }).from(uploads).where(inArray(uploads.key, batch))).map(
        (r) => r.key,
      ),
    );
    for (const key of batch) {
      if (known.has(key)) continue;
      await storage.delete(key);
      removed++;
    }
    batch = [];
  };
  for await (const object of storage.list()) {
    // Exports are not uploads: their own job deletes them when their link lapses.
    if (!UPLOAD_KEY_PATTERN.test(object.key)) continue;
    if (Date.now() - object.lastModified.getTime() < olderThanMs) continue;
    batch.push(object.key);
    if (batch.length >= 500) await sweep();
  }
  if (batch.length > 0) await sweep();
  return removed;
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

/**
 * A small file sent whole as multipart form data (a statement to reconcile), with the form's
 * fields sent before it: its bytes in memory, at most `maxBytes` (413 past it). The file must be
 * in the field "file".
 */
export async function readFormFile(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ bytes: Buffer; filename: string; fields: Record<string, string> }> {
  let part: MultipartFile;
  try {
    part = await firstFile(request);
  } catch (error) {
    if (error instanceof RefusedUpload) throw uploadError(error.status, error.message);
    throw error;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        part.file.destroy();
        throw uploadError(413, `File is too large. The limit is ${maxBytes / 1024 / 1024} MB.`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    // A body broken off or malformed is the sender's, not the server's.
    if (isMultipartError(error)) throw uploadError(400, UNREADABLE);
    throw error;
  }
  if (part.file.truncated) throw uploadError(413, TOO_LARGE);
  const fields: Record<string, string> = {};
  for (const [name, field] of Object.entries(part.fields)) {
    const value = Array.isArray(field) ? field[0] : field;
    if (value && value.type === 'field') fields[name] = String(value.value);
  }
  return { bytes: Buffer.concat(chunks), filename: part.filename, fields };
}
