import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './address';

/** A receiver has this long to answer, the whole answer included. */
export const DELIVERY_TIMEOUT_MS = 5000;
/** What is read of an answer, at most. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface Attempt {
  /** The receiver's status; null when none came (refused, timed out, unsafe). */
  status: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * POSTs one signed delivery to the checked address (decision 127): no redirect followed (a 3xx is
 * an answer like any other, not 2xx), cut at 5 s, at most 64 kB of the answer read.
 */
export function sendDelivery(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  ca: string | undefined,
): Promise<Attempt> {
  const began = performance.now();
  const elapsed = () => Math.round(performance.now() - began);
  // Connect to the address that was checked, whatever the host resolves to by now.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (attempt: Omit<Attempt, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...attempt, durationMs: elapsed() });
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Cardbridge-Webhooks/1',
        },
        lookup: pinned,
        ...(ca ? { ca } : {}),
        agent: false,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) {
            response.destroy();
            finish({ status: response.statusCode ?? null, error: null });
          }
        });
        response.on('end', () => finish({ status: response.statusCode ?? null, error: null }));
        response.on('error', () => finish({ status: response.statusCode ?? null, error: null }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: null, error: `No answer in ${DELIVERY_TIMEOUT_MS / 1000} s` });
    }, DELIVERY_TIMEOUT_MS);
    request.on('error', (error) =>
      finish({ status: null, error: error.message.slice(0, 300) || 'Connection failed' }),
    );
    request.end(body);
  });
}
