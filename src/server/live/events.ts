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
export default async function eventRoutes(app: FastifyInstance) {
  const open = new Set<Subscriber>();

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

    const pending = new Set<LiveTopic | 'resync'>();
    let flushTimer: NodeJS.Timeout | undefined;
    const flush = () => {
      flushTimer = undefined;
      let chunk = '';
      for (const topic of pending) chunk += `event: ${topic}\ndata: {}\n\n`;
      pending.clear();
      res.write(chunk);
    };
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();

    let unsubscribe = () => {};
    const subscriber: Subscriber = {
      scope: account.isAdmin ? STAFF : account.id,
      sid: request.session!.sid,
      accountKey: key,
      send(topics) {
        if (topics.length === 0) pending.add('resync');
        for (const topic of topics) pending.add(topic);
        flushTimer ??= setTimeout(flush, COALESCE_MS);
      },
      close() {
        cleanup();
        res.end();
      },
    };
    const cleanup = () => {
      unsubscribe();
      open.delete(subscriber);
      clearInterval(heartbeat);
      clearTimeout(flushTimer);
    };
    unsubscribe = app.live.subscribe(subscriber);
    open.add(subscriber);
    res.on('close', cleanup);
  });

  // Open streams would keep a shutdown waiting forever.
  app.addHook('preClose', async () => {
    for (const subscriber of [...open]) subscriber.close();
  });
}
