import type { Database } from './db/client';

/**
 * Claims this period's run of `name` for this instance: true for exactly one instance per
 * period, however many share the database (one statement; the row is the lock). The first
 * claim ever, and any claim after `periodMs` since the last, wins.
 */
export async function claimPeriodicRun(
  database: Database,
  name: string,
  periodMs: number,
  now = new Date(),
): Promise<boolean> {
  const { rowCount } = await database.pool.query(
    `insert into job_runs (name, last_run_at) values ($1, $2)
     on conflict (name) do update set last_run_at = excluded.last_run_at
       where job_runs.last_run_at <= $2::timestamptz - $3 * interval '1 millisecond'`,
    [name, now, periodMs],
  );
  return rowCount === 1;
}

/**
 * Runs `job` once per `periodMs` across all instances: each instance checks every `checkMs`
 * whether the period is due and claims it, so the job still runs on time when one instance
 * stops. Returns a function that stops the checks.
 */
export function everyPeriod(
  database: Database,
  name: string,
  periodMs: number,
  job: () => Promise<void>,
  onError: (error: unknown) => void,
  checkMs = Math.min(periodMs, 5 * 60 * 1000),
): () => void {
  const tick = async () => {
    try {
      if (await claimPeriodicRun(database, name, periodMs)) await job();
    } catch (error) {
      onError(error);
    }
  };
  const timer = setInterval(tick, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
