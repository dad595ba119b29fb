/**
 * A worker's runs, one at a time in this process (the mail worker, the webhook sender, the data
 * exports' builder): a call while a run goes on joins it and makes it go round once more before it
 * ends, so what arrived during its last round is not left waiting. A run answers the sum of its
 * rounds' counts.
 */
export class OneRunAtATime {
  private running: Promise<number> | null = null;
  private again = false;

  /** `round` does what is due now and answers how much it did. */
  constructor(private readonly round: () => Promise<number>) {}

  /** Starts a run, or joins the one going on. */
  run(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let done = 0;
      try {
        do {
          this.again = false;
          done += await this.round();
        } while (this.again);
      } finally {
        this.running = null;
      }
      return done;
    })();
    return this.running;
  }

  /** The run going on, if any (to wait for it when stopping). */
  get current(): Promise<number> | null {
    return this.running;
  }
}
