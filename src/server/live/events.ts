import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { EVENTS_PATH, type LiveTopic } from '../../shared/live';
import { STAFF } from '../common/command';
import { accountKey } from '../common/session-cache';
import { accountOf, requireSignedIn } from '../plugins/auth';
import { securityHeaders } from '../plugins/security-headers';
import type { Subscriber } from './hub';

/** Open streams per account (tabs, devices); a new one past this closes the oldest. */
export const MAX_STREAMS_PER_ACCOUNT = 5;
/** A comment line this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 20_000;
/** Changes within this window go out together. */
const COALESCE_MS = 25;

/**
 * GET /api/events: a server-sent-events stream for the signed-in account. Each event is named by
 * the topic that changed (`transactions`, `stats`, `chat`, ...; for staff `queue`, `chats`, ...),
 * from any instance; `resync` means "refetch everything". The page refetches just those queries;
 * the spec's polls keep running as the fallback.
 */
/** Streams written to per turn of the event loop: a broadcast to thousands never blocks it long. */
const WRITE_SLICE = 500;

interface Stream {
  subscriber: Subscriber;
  /** Writes text framed once for every stream (below). */
  write(message: Framed): void;
  /** Topics changed since this stream's last write. */
  pending: Set<LiveTopic | 'resync'>;
}

/** Text to write to many streams, with its HTTP/1.1 chunk around it, made once. */
interface Framed {
  text: string;
  chunk: Buffer;
}

const framed = (text: string): Framed => ({
  text,
  chunk: Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`),
});
const PING = framed(': ping\n\n');

/**
 * How a stream is written to. Once its headers are out, a chunked response is written straight to
 * its socket, one chunk made once for all streams: `res.write` would frame the same text again for
 * each stream and schedule a tick for each (a broadcast to 10,000 streams spent most of its time
 * there). A response that is not chunked (HTTP/1.0) goes through `res.write`.
 */
function writerOf(res: ServerResponse): Stream['write'] {
  const socket = res.socket;
  if (!res.chunkedEncoding || !socket) return ({ text }) => void res.write(text);
  return ({ chunk }) => void (socket.destroyed || socket.write(chunk));
}

export default async function eventRoutes(app: FastifyInstance) {
  const open = new Set<Stream>();
  // One timer for every stream's coalesced changes and one for every heartbeat, not one per
  // stream: a change for many customers marks their streams, and one flush writes them all.
  const dirty = new Set<Stream>();
  let flushTimer: NodeJS.Timeout | undefined;
  const flushAll = () => {
    flushTimer = undefined;
    const streams = [...dirty];
    dirty.clear();
    // The same topics make the same text: serialised once per flush, not once per stream.
    const chunks = new Map<string, Framed>();
    const writeFrom = (from: number) => {
      const end = Math.min(streams.length, from + WRITE_SLICE);
      for (let i = from; i < end; i++) {
        const stream = streams[i]!;
        if (stream.pending.size === 0) continue;
        const key = [...stream.pending].join(' ');
        let chunk = chunks.get(key);
        if (chunk === undefined) {
          let text = '';
          for (const topic of stream.pending) text += `event: ${topic}\ndata: {}\n\n`;
          chunk = framed(text);
          chunks.set(key, chunk);
        }
        stream.pending.clear();
        stream.write(chunk);
      }
      if (end < streams.length) setImmediate(() => writeFrom(end));
    };
    writeFrom(0);
  };
  const heartbeat = setInterval(() => {
    for (const stream of open) stream.write(PING);
  }, HEARTBEAT_MS);
  heartbeat.unref();

  app.get(EVENTS_PATH, { onRequest: requireSignedIn }, async (request, reply) => {
    const account = accountOf(request);
    const key = accountKey(account);
    const streams = app.live.subscribersOf(key);
    const excess = streams.length + 1 - MAX_STREAMS_PER_ACCOUNT;
    for (const oldest of streams.slice(0, Math.max(0, excess))) oldest.close();

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...securityHeaders(request),
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // nginx and similar proxies would otherwise hold events back.
      'X-Accel-Buffering': 'no',
    });
    res.write(`retry: 3000\nevent: ready\ndata: {}\n\n`);

    let unsubscribe = () => {};
    const subscriber: Subscriber = {
      scope: account.isAdmin ? STAFF : account.id,
      sid: request.session!.sid,
      accountKey: key,
      send(topics) {
        if (topics.length === 0) stream.pending.add('resync');
        for (const topic of topics) stream.pending.add(topic);
        dirty.add(stream);
        flushTimer ??= setTimeout(flushAll, COALESCE_MS);
      },
      close() {
        cleanup();
        res.end();
      },
    };
    const stream: Stream = { subscriber, write: writerOf(res), pending: new Set() };
    const cleanup = () => {
      unsubscribe();
      open.delete(stream);
      dirty.delete(stream);
    };
    unsubscribe = app.live.subscribe(subscriber);
    open.add(stream);
    res.on('close', cleanup);
  });

  // Open streams would keep a shutdown waiting forever.
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    clearTimeout(flushTimer);
    for (const stream of [...open]) stream.subscriber.close();
  });
}
