import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * A file sent whole in the answer: its type, its name (a download, or shown in place when
 * `inline`), never kept by a shared cache (`private, no-store` unless `cache` says otherwise),
 * and its length when known.
 */
export function sendFile(
  reply: FastifyReply,
  file: {
    type: string;
    name: string;
    inline?: boolean;
    cache?: string;
    size?: number;
    headers?: Record<string, string>;
  },
  body: Buffer | Readable,
) {
  reply
    .header('Content-Type', file.type)
    .header(
      'Content-Disposition',
      `${file.inline ? 'inline' : 'attachment'}; filename="${file.name}"`,
    )
    .header('Cache-Control', file.cache ?? 'private, no-store');
  if (file.size !== undefined) reply.header('Content-Length', String(file.size));
  if (file.headers) reply.headers(file.headers);
  return reply.send(body);
}
