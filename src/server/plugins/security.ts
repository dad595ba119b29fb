import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../common/http-error';
import { securityHeaders } from './security-headers';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route other sites may POST to: it uses no cookie and is authorised by a signed token in
     * its URL alone (the one-click unsubscribe, which mail programs call from their servers).
     */
    crossSite?: boolean;
  }
}

/**
 * A state-changing request must come from the site itself (PRODUCT.md: no token). Browsers send
 * Sec-Fetch-Site and Origin on such requests; a request carrying neither is not from a browser
 * page (curl, the test client) and cannot ride a victim's cookie cross-site.
 */
export function isCrossOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  if (typeof origin === 'string') {
    if (origin === 'null') return true;
    try {
      // Scheme, host and port must all match: https://host is not http://host.
      return new URL(origin).origin !== new URL(`${request.protocol}://${request.host}`).origin;
    } catch {
      return true;
    }
  }
  return false;
}

/** Why a request is refused before routing, if it is. */
function refusal(request: FastifyRequest): HttpError | undefined {
  // HTTP/1.1 requires it; Node's own refusal would have no body and none of our headers.
  if (!request.headers.host && request.raw.httpVersion !== '1.0') {
    return new HttpError(400, 'Host header required');
  }
  if (
    !SAFE_METHODS.has(request.method) &&
    !request.routeOptions.config?.crossSite &&
    isCrossOrigin(request)
  ) {
    return new HttpError(403, 'Cross-origin request refused');
  }
  return undefined;
}

export function registerSecurity(app: FastifyInstance) {
  // Passed on, not sent: the error handler gives them the shape of every other error.
  app.addHook('onRequest', (request, _reply, done) => done(refusal(request)));

  app.addHook('onSend', (request, reply, payload, done) => {
    // A 304 carries no body to guard and changes nothing the browser shows: it gets the fields
    // RFC 9110 (15.4.5) names for it (ETag, Cache-Control), not the policy headers (decision 090).
    if (reply.statusCode !== 304) {
      const headers = securityHeaders(request);
      // A route may set a stricter policy of its own (served files do).
      if (reply.hasHeader('Content-Security-Policy')) {
        const { 'Content-Security-Policy': _own, ...rest } = headers;
        reply.headers(rest);
      } else {
        reply.headers(headers);
      }
    }
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });
}
