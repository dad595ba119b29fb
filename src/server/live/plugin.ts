import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NEXT_CURSOR_HEADER } from '../../shared/admin';
import { type LiveTopic, TOPIC_URLS } from '../../shared/live';
import type { Command } from '../common/command';
import { PUBLIC, STAFF } from '../common/command';
import { accountKey } from '../common/session-cache';
import type { LiveHub } from './hub';
import { etagOf } from './response-cache';

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveHub;
    /**
     * Runs a write (a command of a module) and publishes the live topics it changed, once, after
     * it committed: the one place a module's writes reach the live hub.
     */
    run<T>(command: Command<T>): Promise<T>;
  }
  interface FastifyContextConfig {
    /**
     * A GET whose answer depends only on `topic` in the signed-in account's scope (or in the staff
     * scope): answered from memory while the topic is unchanged, with an ETag and 304 Not Modified
     * to a matching If-None-Match.
     */
    live?: { topic: LiveTopic; scope?: 'account' | 'staff' | 'public' };
  }
  interface FastifyRequest {
    /** Set on a cacheable miss: where to keep the answer, and the stamp read before the query. */
    liveMiss?: { key: string; stamp: number };
  }
}

/**
 * Answers unchanged polls from memory. The stamp is read before the handler queries, so a write
 * that lands during the query leaves the stored answer with an old stamp: the next poll reads again.
 */
export function registerLiveCache(app: FastifyInstance, hub: LiveHub) {
  app.decorate('live', hub);
  app.decorate('run', async function run<T>(this: FastifyInstance, command: Command<T>) {
    const { db, now, config, storage } = this;
    const { value, changed } = await command({ db, now, config, storage });
    for (const c of changed) {
      if ('everywhere' in c) hub.changedEverywhere(c.everywhere);
      else if ('account' in c) hub.accountChanged(accountKey(c.account));
      else if ('sessionsEnded' in c) hub.sessionsEnded(c.sessionsEnded);
      else hub.changed(c.scopes, c.topics);
    }
    return value;
  });

  // A cached answer that clients would not refetch when its topic changes would go stale on
  // screen: every route cached under a topic must be in src/shared/live.ts's TOPIC_URLS (the
  // client's refetch table), itself or below one of its paths (the client keys one record under
  // its list's path). Checked as routes register, so such an app does not start.
  app.addHook('onRoute', (route) => {
    const live = route.config?.live;
    const mapped = (url: string) => route.url === url || route.url.startsWith(`${url}/`);
    if (live && !TOPIC_URLS[live.topic].some(mapped)) {
      throw new Error(
        `${route.url} is cached under the live topic '${live.topic}', but TOPIC_URLS in src/shared/live.ts does not list it there`,
      );
    }
  });

  // Callback hooks (decision 090): a hit sends the answer and does not call `done`, which ends
  // the chain there (Fastify's way for callback hooks).
  app.addHook('preHandler', (request, reply, done) => {
    // A change of the topic that this instance is still working out (hub.settle) comes first.
    const topic = request.routeOptions.config.live?.topic;
    const settling = topic && hub.settled(topic);
    const answer = () => {
      if (!answeredFromMemory(hub, request, reply)) done();
    };
    if (settling) settling.then(answer, answer);
    else answer();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, keepAnswer(hub, request, reply, payload));
  });
}

/** Sends the answer kept in memory when the topic has not changed since: whether it did. */
function answeredFromMemory(hub: LiveHub, request: FastifyRequest, reply: FastifyReply): boolean {
  const live = request.routeOptions.config.live;
  if (!live || request.method !== 'GET') return false;
  // A public answer (the rates) is the same for everyone, signed in or not.
  const scope =
    live.scope === 'public' ? PUBLIC : live.scope === 'staff' ? STAFF : request.account?.id;
  if (!scope) return false;
  const key = `${scope} ${request.url}`;
  const stamp = hub.stamp(scope, live.topic);
  const cached = hub.coherent ? hub.responses.get(key) : undefined;
  if (cached?.stamp === stamp) {
    if (request.headers['if-none-match'] === cached.etag) {
      if (cached.headers) reply.headers(cached.headers);
      reply.header('ETag', cached.etag).code(304).send();
      return true;
    }
    const body = hub.responses.body(key);
    if (body !== undefined) {
      if (cached.headers) reply.headers(cached.headers);
      reply.header('ETag', cached.etag);
      reply.type('application/json; charset=utf-8').send(body);
      return true;
    }
  }
  request.liveMiss = { key, stamp };
  return false;
}

/** Keeps a missed answer with its ETag, and turns it into a 304 when the client already has it. */
function keepAnswer(hub: LiveHub, request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const miss = request.liveMiss;
  if (!miss || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const etag = etagOf(payload);
  if (hub.coherent) {
    const cursor = reply.getHeader(NEXT_CURSOR_HEADER);
    const headers = typeof cursor === 'string' ? { [NEXT_CURSOR_HEADER]: cursor } : undefined;
    hub.responses.set(miss.key, { stamp: miss.stamp, etag, headers }, payload);
  }
  reply.header('ETag', etag);
  if (request.headers['if-none-match'] === etag) {
    reply.code(304);
    return null;
  }
  return payload;
}
