import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/free-port';
import { leanClient } from '../../scripts/lib/lean-http.mjs';

/** The soak generator's HTTP client (decision 092) against node:http, as the server answers. */

let server: http.Server;
let port: number;
let open = 0;
let mostOpen = 0;
const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] =
  [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      open++;
      mostOpen = Math.max(mostOpen, open);
      // Answers overlap, so a client that sent more than one request at a time on a socket, or
      // opened more sockets than allowed, would be seen here.
      setTimeout(() => {
        open--;
        if (request.url === '/cached') {
          if (request.headers['if-none-match'] === '"v1"') response.writeHead(304).end();
          else response.writeHead(200, { etag: '"v1"' }).end('x'.repeat(100_000));
        } else if (request.url === '/chunked') {
          response.writeHead(201);
          response.write('first,');
          setTimeout(() => response.end('second'), 10);
        } else response.writeHead(404, { 'content-length': '2' }).end('no');
      }, 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const ask = (
  client: ReturnType<typeof leanClient>,
  method: string,
  path: string,
  headers = '',
  body?: string,
) =>
  new Promise<{ status: number; etag?: string }>((resolve) =>
    client.request(method, path, headers, body, (status, etag) => resolve({ status, etag })),
  );

describe('the soak generator’s client', () => {
  it('reads status and ETag through a large body, a 304, a chunked body and an error', async () => {
    const client = leanClient({ base: `http://127.0.0.1:${port}`, maxSockets: 1 });
    const answers = await Promise.all([
      ask(client, 'GET', '/cached'),
      ask(client, 'GET', '/cached', 'if-none-match: "v1"\r\n'),
      ask(client, 'GET', '/chunked'),
      ask(client, 'GET', '/missing'),
      ask(client, 'POST', '/missing', 'cookie: a=b\r\n', '{"message":"héllo"}'),
    ]);
    client.close();
    expect(answers).toEqual([
      { status: 200, etag: '"v1"' },
      { status: 304, etag: undefined },
      { status: 201, etag: undefined },
      { status: 404, etag: undefined },
      { status: 404, etag: undefined },
    ]);
    const post = seen.at(-1)!;
    expect(post).toMatchObject({ method: 'POST', body: '{"message":"héllo"}' });
    expect(post.headers).toMatchObject({ cookie: 'a=b', 'content-type': 'application/json' });
  });

  it('keeps to maxSockets, one request at a time on each, and queues the rest', async () => {
    mostOpen = 0;
    const client = leanClient({ base: `http://127.0.0.1:${port}`, maxSockets: 3 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => ask(client, 'GET', '/missing')),
    );
    client.close();
    expect(answers.every((a) => a.status === 404)).toBe(true);
    expect(mostOpen).toBe(3);
  });

  it('answers status 0 when the connection fails', async () => {
    const client = leanClient({ base: `http://127.0.0.1:${await freePort()}`, maxSockets: 2 });
    expect(await ask(client, 'GET', '/')).toEqual({ status: 0, etag: undefined });
  });
});
