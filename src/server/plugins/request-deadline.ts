import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A request must arrive whole within `seconds` (REQUEST_BODY_SECONDS): a client trickling a body
 * a byte at a time, which the idle limit never catches, is cut off. Node's own `requestTimeout`
 * stops counting once the headers are in, so the deadline is kept here, for requests that carry
 * a body; it ends when the body has been read.
 */
export function registerRequestDeadline(app: FastifyInstance, seconds: number) {
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    const whole = raw.complete || !hasBody(request);
    if (!whole) keepDeadline(request, seconds);
    pauseIdleLimit(request, whole);
    done();
  });
  // The answer is on its way: a client that stops reading it is idle again.
  const idleMs = app.initialConfig.connectionTimeout ?? 0;
  app.addHook('onSend', (request, _reply, payload, done) => {
    const socket = request.raw.socket;
    if (idleMs > 0 && typeof socket?.setTimeout === 'function' && !socket.destroyed) {
      socket.setTimeout(idleMs);
    }
    done(null, payload);
  });
}

const hasBody = ({ raw }: FastifyRequest) =>
  raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'] !== undefined;

/**
 * The idle limit (`connectionTimeout`, REQUEST_IDLE_SECONDS) is for a client that stops sending.
 * Once its request is all in, the client is waiting on us, so the limit pauses until the answer
 * starts (a partner's bulk of 500 cards outlasted the 30 s on a loaded machine and was cut before
 * its answer). Node sets the socket's keep-alive wait itself when the answer ends.
 */
function pauseIdleLimit(request: FastifyRequest, whole: boolean) {
  const raw = request.raw;
  const socket = raw.socket;
  // Under app.inject there is no socket to time out.
  if (typeof socket?.setTimeout !== 'function') return;
  const pause = () => {
    if (!socket.destroyed) socket.setTimeout(0);
  };
  if (whole) pause();
  else raw.once('end', pause);
}

function keepDeadline(request: FastifyRequest, seconds: number) {
  const raw = request.raw;
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
