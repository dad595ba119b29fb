interface Waiter<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
}

/**
 * Reads by key, many keys to one statement (docs/decisions/040). A key asked for while this
 * loader's previous statement is still running waits for it to end and goes out with every other
 * key asked for meanwhile, in the next statement; with nothing running, a key goes out at the next
 * turn of the event loop (with whatever else that turn asked for). So one poll alone costs one
 * statement, as before, and a burst of polls (a thousand customers opening their pages at once)
 * costs a few statements instead of one each: the busier the database, the larger the batches.
 *
 * Nothing is kept: every key is read by a statement that starts after it was asked for, so an
 * answer is never older than the request (the response cache's stamps rely on that).
 */
export class BatchLoader<K, V> {
  private waiting = new Map<K, Waiter<V>[]>();
  private running = false;
  private scheduled = false;

  /**
   * `loadMany` reads every key in one statement; a key it leaves out gets `missing(key)`.
   * `maxKeys` bounds one statement's keys (the rest go out in the next one).
   */
  constructor(
    private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>,
    private readonly missing: (key: K) => V,
    private readonly maxKeys = 500,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.schedule();
    });
  }

  private schedule() {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run() {
    const batch = new Map<K, Waiter<V>[]>();
    for (const [key, waiters] of this.waiting) {
      if (batch.size >= this.maxKeys) break;
      batch.set(key, waiters);
    }
    for (const key of batch.keys()) this.waiting.delete(key);
    this.running = true;
    try {
      const found = await this.loadMany([...batch.keys()]);
      for (const [key, waiters] of batch) {
        const value = found.has(key) ? found.get(key)! : this.missing(key);
        for (const waiter of waiters) waiter.resolve(value);
      }
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.running = false;
      if (this.waiting.size > 0) this.schedule();
    }
  }
}

/** Rows grouped by a key, in the order they came. */
export function groupBy<R, K>(rows: R[], keyOf: (row: R) => K): Map<K, R[]> {
  const groups = new Map<K, R[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
