import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built client. The build writes a brotli and a gzip copy beside each text file; the
 * one the browser accepts is sent with Content-Encoding and `Vary: Accept-Encoding`. Hashed
 * assets are cached for a year as immutable; index.html is revalidated (no-cache, with its ETag)
 * so a new build shows at once. Every other GET that is not an API or file path gets index.html,
 * so the client router decides what the path shows.
 */
export async function registerClient(app: FastifyInstance, clientDir: string | undefined) {
  const hasClient = clientDir !== undefined && existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        reply.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isAppPath = !pathname.startsWith('/api/') && !pathname.startsWith('/objects/');
    if (hasClient && request.method === 'GET' && isAppPath) {
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return reply.code(404).send({ message: `Not found: ${request.method} ${pathname}` });
  });
}
