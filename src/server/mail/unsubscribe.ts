import { createHmac, timingSafeEqual } from 'node:crypto';
import { OPTIONAL_EMAILS, type OptionalEmail } from '../../shared/email-preferences';
import type { AppConfig } from '../config';

/**
 * One-click unsubscribe links (RFC 8058; decision 074): `<customer id>.<kind>.<signature>`, an
 * HMAC-SHA256 of the two under a key derived from SESSION_SECRET. Stateless, so a link works for as
 * long as the email is kept, any number of times, without signing in, and for that customer and
 * that kind of email only. Rotating SESSION_SECRET ends the links sent before (Profile still works).
 */
const keyOf = (secret: string) =>
  createHmac('sha256', secret).update('cardbridge:unsubscribe').digest();

const signatureOf = (secret: string, userId: string, kind: OptionalEmail) =>
  createHmac('sha256', keyOf(secret)).update(`${userId}.${kind}`).digest('base64url');

export function unsubscribeToken(secret: string, userId: string, kind: OptionalEmail) {
  return `${userId}.${kind}.${signatureOf(secret, userId, kind)}`;
}

/** The customer and kind a token names, or null when it is not one we signed. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: string; kind: OptionalEmail } | null {
  const [userId, kind, signature, ...rest] = token.split('.');
  if (!userId || !kind || !signature || rest.length > 0) return null;
  if (!/^[0-9a-f-]{36}$/.test(userId)) return null;
  if (!(OPTIONAL_EMAILS as readonly string[]).includes(kind)) return null;
  const expected = Buffer.from(signatureOf(secret, userId, kind as OptionalEmail));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, kind: kind as OptionalEmail };
}

/** The link in an optional email, and the headers that let mail programs offer it in one click. */
export function unsubscribeOf(
  config: Pick<AppConfig, 'appUrl' | 'sessionSecret'>,
  userId: string,
  kind: OptionalEmail,
) {
  const url = `${config.appUrl}/api/unsubscribe?token=${unsubscribeToken(config.sessionSecret, userId, kind)}`;
  return {
    url,
    headers: {
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
