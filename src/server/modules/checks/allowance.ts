/**
 * Hands out parts of a fixed amount (bytes, decoders, upload turns) first come, first served: a
 * request waits until its whole amount is free, and later ones wait behind it. Written here rather
 * than taken from a package because it counts amounts, not tasks (a 1 MB photo and a 10 MB one do
 * not cost the same), and can stop waiting when nothing moves (decisions 070, 087).
 */
export class Allowance {
  private readonly waiting: { amount: number; grant: (taken: boolean) => void }[] = [];
  private stall: NodeJS.Timeout | undefined;

  /**
   * With `stallMs`, the waiters stop waiting when nothing has been given back for that long: each
   * `take` then resolves false, having taken nothing (so it gives nothing back). Holders that keep
   * what they took (a slow client) then delay the others by `stallMs`, not for as long as they hold.
   */
  constructor(
    private free: number,
    private readonly stallMs?: number,
  ) {}

  /** What is free to take now. */
  get available(): number {
    return this.free;
  }

  /** Resolves true once `amount` is taken, or false when the waiters stopped waiting (above). */
  take(amount: number): Promise<boolean> {
    if (this.waiting.length === 0 && amount <= this.free) {
      this.free -= amount;
      return Promise.resolve(true);
    }
    return new Promise((grant) => {
      this.waiting.push({ amount, grant });
      if (this.waiting.length === 1) this.watch();
    });
  }

  give(amount: number): void {
    this.free += amount;
    for (let next = this.waiting[0]; next && next.amount <= this.free; next = this.waiting[0]) {
      this.waiting.shift();
      this.free -= next.amount;
      next.grant(true);
    }
    this.watch();
  }

  /** (Re)starts the stall timer while some wait; nothing was given back for stallMs when it ends. */
  private watch() {
    clearTimeout(this.stall);
    if (this.stallMs === undefined || this.waiting.length === 0) return;
    this.stall = setTimeout(() => {
      for (const waiter of this.waiting.splice(0)) waiter.grant(false);
    }, this.stallMs);
    this.stall.unref();
  }
}
