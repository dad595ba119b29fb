import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_URL_HTTPS, WEBHOOK_URL_PRIVATE } from '../../../shared/partner-api';

/** Where a delivery connects: the URL, and the address its host resolved to and was checked at. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class UnsafeWebhookUrl extends Error {}

/**
 * Whether an address is on the public internet (OWASP's SSRF guidance): not private, loopback,
 * link-local (cloud metadata), carrier-grade NAT, multicast, reserved or unspecified, an IPv4
 * address written as IPv6 judged as the IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * A webhook URL checked as a delivery needs it (decision 127): https (http only where private
 * addresses are allowed: tests, local development), no credentials, and a host whose every
 * resolved address is public. Checked at registration and again before each delivery, which then
 * connects to the address checked here (a DNS answer that changes in between is not followed).
 */
export async function checkWebhookUrl(
  text: string,
  options: { allowPrivate: boolean },
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeWebhookUrl('url must be a full URL such as https://example.com/hooks');
  }
  const httpAllowed = options.allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) throw new UnsafeWebhookUrl(WEBHOOK_URL_HTTPS);
  if (url.username || url.password) {
    throw new UnsafeWebhookUrl('The URL must not carry a user name or password');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(host)
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new UnsafeWebhookUrl(`The host ${host} could not be resolved`);
  }
  if (addresses.length === 0) throw new UnsafeWebhookUrl(`The host ${host} could not be resolved`);
  if (!options.allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) {
    throw new UnsafeWebhookUrl(WEBHOOK_URL_PRIVATE);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
