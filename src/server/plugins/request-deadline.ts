import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A request must arrive whole within `seconds` (REQUEST_BODY_SECONDS): a client trickling a body
 * a byte at a time, which the idle limit never catches, is cut off. Node's own `requestTimeout`
 * stops counting once the headers are in, so the deadline is kept here, for requests that carry
 * a body; it ends when the body has been read.
 */
export function registerRequestDeadline(app: FastifyInstance, seconds: number) {
  app.addHook('onRequest', (request, _reply, done) => {
    keepDeadline(request, seconds);
    done();
  });
}

function keepDeadline(request: FastifyRequest, seconds: number) {
  const raw = request.raw;
  const hasBody = raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'];
  if (!hasBody || raw.complete) return;
  const timer = setTimeout(() => {
    if (raw.complete) return;
    request.log.info({ url: request.url.split('?')[0] }, 'request body too slow: cut off');
    // The socket goes, and the request with it (under app.inject there is only the request).
    if (typeof raw.socket?.destroy === 'function') raw.socket.destroy();
    else raw.destroy();
  }, seconds * 1000);
  timer.unref();
  const stop = () => clearTimeout(timer);
  raw.once('end', stop);
  raw.once('close', stop);
}
