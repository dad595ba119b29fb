import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Account } from '../../common/account';
import { sendFile } from '../../common/download';
import { HttpError, notFound } from '../../common/http-error';
import {
  accountOf,
  currentAccount,
  requireCustomer,
  requireSignedIn,
  UNAUTHORIZED,
} from '../../plugins/auth';
import { limit } from '../../plugins/rate-limit';
import { UPLOAD_KEY_PATTERN } from '../../storage/object-storage';
import { mayFetchObject } from './access';
import { recordDocumentView } from './commands';
import { openStoredDocument } from './documents';
import { findUpload, hashesSettled, storeUpload } from './uploads';

/** A file the retention run deleted (its card or message still names it). */
export const REMOVED_FOR_RETENTION =
  'Photo removed (retention): files are kept for a limited time after a card settles or a message is sent.';

export default async function fileRoutes(app: FastifyInstance) {
  // A stopping server first writes the hashes of the photos it already answered (decision 086).
  app.addHook('onClose', hashesSettled);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Card images and chat attachments count together.
  const uploadLimit = {
    rateLimit: limit('upload', app.config.limits),
  };

  // A card's images, and identity documents (decision 072): the card images' file rules, each
  // kind its own prefix.
  for (const [path, kind] of [
    ['/api/upload-card-image', 'card'],
    ['/api/upload-verification-document', 'verification'],
  ] as const) {
    r.post(
      path,
      {
        onRequest: requireCustomer,
        config: uploadLimit,
        schema: { response: { 200: z.object({ objectPath: z.string() }) } },
      },
      async (request, reply) => {
        const { objectPath } = await storeUpload(request, reply, accountOf(request), kind);
        return { objectPath };
      },
    );
  }

  r.post(
    '/api/chat/upload-attachment',
    {
      onRequest: requireSignedIn,
      config: uploadLimit,
      schema: {
        response: { 200: z.object({ url: z.string(), type: z.enum(['image', 'other']) }) },
      },
    },
    async (request, reply) => {
      const { objectPath, type } = await storeUpload(request, reply, accountOf(request), 'chat');
      return {
        url: objectPath,
        type: type.kind === 'image' ? ('image' as const) : ('other' as const),
      };
    },
  );

  r.get('/objects/*', async (request, reply) => {
    const account = await currentAccount(request);
    if (!account) throw new HttpError(401, UNAUTHORIZED);
    const key = (request.params as { '*': string })['*'];
    if (!UPLOAD_KEY_PATTERN.test(key)) throw notFound();
    const upload = await findUpload(app.db, key);
    // Whoever the table does not name learns nothing, not even that the file exists.
    if (!upload || !mayFetchObject(account, upload)) throw notFound();
    if (upload.removedAt) throw new HttpError(410, REMOVED_FOR_RETENTION);
    if (upload.kind === 'verification') return serveDocument(reply, account, upload);
    const stored = await app.storage.get(key);
    if (!stored) throw notFound();

    return sendStoredFile(
      reply,
      upload.contentType,
      key,
      stored.size,
      'private, no-store',
      stored.body,
    );
  });

  /** An identity document: never cached, each view audited before a byte goes out (072). */
  async function serveDocument(
    reply: FastifyReply,
    account: Account,
    upload: { key: string; contentType: string },
  ) {
    const key = upload.key;
    const recorded = await app.run((context) => recordDocumentView(context, account, key));
    if (!recorded) throw notFound();
    const stored = await app.storage.get(key);
    if (!stored) throw notFound();
    const bytes = await openStoredDocument(app.config.encryption, stored);
    return sendStoredFile(reply, upload.contentType, key, bytes.length, 'no-store', bytes);
  }
}

/**
 * A stored upload: a photo shown in place, anything else downloaded, under its stored name, and
 * sandboxed so that nothing in it can run as the app.
 */
function sendStoredFile(
  reply: FastifyReply,
  type: string,
  key: string,
  size: number,
  cache: string,
  body: Buffer | Readable,
) {
  const name = key.split('/')[1]!;
  const inline = type.startsWith('image/');
  const headers = { 'Content-Security-Policy': "default-src 'none'; img-src 'self'; sandbox" };
  return sendFile(reply, { type, name, inline, cache, size, headers }, body);
}
