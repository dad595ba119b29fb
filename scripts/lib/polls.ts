import { fork } from 'node:child_process';
import path from 'node:path';
import { seedCardbridge, signInSeeded } from './seed';

/** The first wave of polls let pass, then the stretch measured before the load under test. */
export const FIRST_WAVE_MS = 12_000;
export const QUIET_MS = 10_000;

/**
 * The polling customers of a benchmark that asks whether its load leaves the mix unchanged:
 * `count` customers with 20 cards each, seeded before the server starts and signed in by session
 * rows under `sessionSecret`. Answers their cookies (seed them before any other account).
 */
export async function seedPollingCustomers(
  where: { databaseUrl?: string; pgliteDir?: string },
  count: number,
  sessionSecret: string,
  staff: { email: string; password: string },
) {
  await seedCardbridge(where, {
    customers: count,
    cards: 20,
    password: 'bench polling password',
    staff,
  });
  return signInSeeded(where, sessionSecret);
}

/** The spec's polls, each with its interval (section 9): what a signed-in browser asks for. */
export const POLLS = [
  { path: '/api/stats', everyMs: 10_000 },
  { path: '/api/transactions/recent', everyMs: 5_000 },
  { path: '/api/transactions', everyMs: 5_000 },
  { path: '/api/chat/messages', everyMs: 3_000 },
];

/** What one process of scripts/lib/poller.mjs sends back. */
export interface PollerResult {
  /** [sent at (ms into the polling), ms, kind, index in POLLS] */
  answers: [number, number, string, number][];
  statuses: Record<string, number>;
  networkErrors: number;
  /** Ticks that sent nothing: that customer's last poll of the path was still out. */
  skipped: number;
  /** The share of its time the generator's process spent on the CPU. */
  busy: number;
}

/**
 * Customers polling as their browsers do, from one process (scripts/lib/poller.mjs), until
 * stopped: each answer with the epoch time its request was sent. The benchmarks that ask whether
 * the polling mix is unchanged by their load (bench:partner, bench:payouts) poll with it.
 */
export function startPolling(base: string, cookies: string[]) {
  const startAt = Date.now() + 200;
  const child = fork(path.join(import.meta.dirname, 'poller.mjs'), [], { execArgv: [] });
  const result = new Promise<PollerResult>((resolve, reject) => {
    child.once('message', (answer) => resolve(answer as PollerResult));
    child.once('exit', (code) => code !== 0 && reject(new Error(`the poller exited ${code}`)));
  });
  child.send({ base, cookies, polls: POLLS, seconds: 3600, startAt });
  return {
    async stop() {
      child.send('stop');
      const { answers, busy, networkErrors } = await result;
      return {
        answers: answers.map(([at, ms, kind]) => ({ at: startAt + at, ms, kind })),
        busy,
        networkErrors,
      };
    },
    kill: () => child.kill(),
  };
}

export type Polled = Awaited<ReturnType<ReturnType<typeof startPolling>['stop']>>;

/** The answers to polls sent within `spans` (epoch ms): their rate, latency and errors. */
export function pollingIn({ answers }: Polled, spans: [number, number][]) {
  const inside = answers.filter((a) => spans.some(([from, to]) => a.at >= from && a.at < to));
  const ms = inside.map((a) => a.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * q))] ?? 0;
  const seconds = spans.reduce((sum, [from, to]) => sum + (to - from), 0) / 1000;
  return {
    perSecond: inside.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors: inside.filter((a) => a.kind === 'error').length,
  };
}

/** "250 answers/s, p50 0.5 ms, p99 1.8 ms, 0 errors" for the polls sent within `spans`. */
export function pollingLine(polled: Polled, spans: [number, number][]) {
  const { perSecond, p50, p99, errors } = pollingIn(polled, spans);
  return `${perSecond.toFixed(0)} answers/s, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ${errors} errors`;
}
