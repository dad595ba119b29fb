import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { LiveHub, LiveMessage } from './hub';

export const CHANNEL = 'cardbridge_live';
/** PostgreSQL refuses NOTIFY payloads from 8,000 bytes; long lists are split below that. */
const MAX_PAYLOAD = 7000;

interface Envelope extends LiveMessage {
  /** The instance that sent it: an instance ignores its own. */
  from: string;
}

/**
 * Keeps instances on one PostgreSQL coherent: every change a hub makes is announced with NOTIFY,
 * and each instance LISTENs on a connection of its own and applies what the others announce.
 * While that connection is down the hub answers nothing from memory (and forgets what it held
 * when it comes back), so an instance never serves what another changed unheard.
 */
export async function startPgBridge(
  hub: LiveHub,
  pool: pg.Pool,
  connectionString: string,
  log: FastifyBaseLogger,
) {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

  hub.publish = (message) => {
    for (const payload of payloads({ ...message, from: hub.instanceId })) {
      pool.query('select pg_notify($1, $2)', [CHANNEL, payload]).catch((err: Error) => {
        log.error({ err }, 'could not tell the other instances of a change');
      });
    }
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (notification) => {
      if (notification.channel !== CHANNEL || !notification.payload) return;
      try {
        const { from, ...message } = JSON.parse(notification.payload) as Envelope;
        if (from !== hub.instanceId) hub.receive(message);
      } catch (err) {
        log.warn({ err }, 'ignored a malformed change notification');
      }
    });
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = null;
      next.removeAllListeners('error');
      next.on('error', () => {});
      void next.end().catch(() => {});
      if (stopped) return;
      log.warn({ err }, 'lost the change notifications; answering from the database until back');
      hub.setCoherent(false);
      schedule();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
    retryMs = 500;
    if (!hub.coherent) {
      hub.setCoherent(true);
      log.info('change notifications are back');
    }
  };

  const schedule = () => {
    timer = setTimeout(() => {
      connect().catch((err) => {
        log.warn({ err }, 'could not listen for change notifications; retrying');
        retryMs = Math.min(retryMs * 2, 10_000);
        schedule();
      });
    }, retryMs);
  };

  await connect();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      hub.publish = null;
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/** One or more NOTIFY payloads for a message, each under PostgreSQL's size limit. */
export function payloads(envelope: Envelope): string[] {
  const whole = JSON.stringify(envelope);
  if (whole.length <= MAX_PAYLOAD) return [whole];
  const { endedSids = [], accounts = [], from, ...rest } = envelope;
  const out = [JSON.stringify({ ...rest, from })];
  for (const [key, list] of [
    ['endedSids', endedSids],
    ['accounts', accounts],
  ] as const) {
    let chunk: string[] = [];
    let size = 0;
    for (const item of list) {
      if (size + item.length + 3 > MAX_PAYLOAD - 100 && chunk.length > 0) {
        out.push(JSON.stringify({ from, [key]: chunk }));
        chunk = [];
        size = 0;
      }
      chunk.push(item);
      size += item.length + 3;
    }
    if (chunk.length > 0) out.push(JSON.stringify({ from, [key]: chunk }));
  }
  return out;
}
