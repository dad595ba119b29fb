import type { FastifyRequest } from 'fastify';

/**
 * The headers every answer carries (security.ts sets them in a hook; errors.ts and the streams
 * that bypass the hooks set them themselves). A leaf: both of those import it.
 */
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
