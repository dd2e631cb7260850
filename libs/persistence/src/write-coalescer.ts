export interface WriteCoalescerOptions {
  /** Most items one flush takes. */
  maxBatch: number;
  /** Flushes running at once (each holds a database connection). */
  maxInFlight: number;
  /**
   * When a batch fails, flush its items again one by one, so one bad item cannot fail the others
   * (default true). False: every item of the failed batch gets the batch's error.
   */
  splitOnFailure?: boolean;
}

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns concurrent single writes into batched statements (group commit): an item is flushed at once
 * when fewer than `maxInFlight` flushes run; otherwise it waits for one to finish and goes with
 * everything that queued meanwhile. No timer: a lone request is never delayed, and under load one
 * statement (one round trip, one commit) serves many requests — the biggest cost of the intake and
 * webhook paths was the per-statement work on both sides of the database socket, not the rows.
 *
 * `flush` gets the items in arrival order and returns one result per item (same order). When a
 * batch fails, its items are flushed again one by one (unless `splitOnFailure` is false), so one
 * bad item cannot fail the others; an item whose own flush fails gets that error.
 */
export class WriteCoalescer<I, R> {
  private readonly queue: Array<Pending<I, R>> = [];
  private inFlight = 0;
  private readonly idle: Array<() => void> = [];

  constructor(
    private readonly flush: (items: I[]) => Promise<R[]>,
    private readonly options: WriteCoalescerOptions,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.drain();
    });
  }

  /** Resolves when nothing is queued or being flushed (on shutdown, after the last submit). */
  async drained(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.drain();
        if (this.queue.length === 0 && this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
      });
    }
  }

  private async run(batch: Array<Pending<I, R>>): Promise<void> {
    try {
      const results = await this.flush(batch.map((pending) => pending.item));
      if (results.length !== batch.length) throw new Error(`flush returned ${results.length} results for ${batch.length} items`);
      batch.forEach((pending, index) => pending.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1 || this.options.splitOnFailure === false) batch.forEach((pending) => pending.reject(error));
      else for (const pending of batch) await this.run([pending]);
    }
  }
}
