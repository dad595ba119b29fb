import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix positions popovers with inline style attributes; no inline <style> or script runs.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

export function registerSecurity(app: FastifyInstance) {
  // Thrown, not sent: the error handler gives them the shape of every other error.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // HTTP/1.1 requires it; Node's own refusal would have no body and none of our headers.
    if (!request.headers.host && request.raw.httpVersion !== '1.0') {
      throw new HttpError(400, 'Host header required');
    }
    if (!SAFE_METHODS.has(request.method) && isCrossOrigin(request)) {
      throw new HttpError(403, 'Cross-origin request refused');
    }
  });

  app.addHook('onSend', async (request, reply) => {
    const headers = securityHeaders(request);
    // A route may set a stricter policy of its own (served files do).
    if (reply.hasHeader('Content-Security-Policy')) {
      const { 'Content-Security-Policy': _own, ...rest } = headers;
      reply.headers(rest);
    } else {
      reply.headers(headers);
    }
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
  });
}

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};
const HTTPS_HEADERS = {
  ...HEADERS,
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

/** The headers every answer carries, including the streams that bypass the hooks. */
export const securityHeaders = (request: FastifyRequest): Readonly<Record<string, string>> =>
  request.protocol === 'https' ? HTTPS_HEADERS : HEADERS;
