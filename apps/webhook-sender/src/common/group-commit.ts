export interface GroupCommitOptions<T> {
  /** Writes a batch in one statement or transaction; throws to fail every item of it. */
  write(items: T[]): Promise<void>;
  /** Largest batch. */
  maxBatch: number;
  /** Batches written at the same time. */
  maxConcurrent?: number;
  /** When a batch fails, write its items one by one, so that one bad item fails alone. */
  splitOnFailure?: boolean;
}

interface Entry<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items added while a batch is being written wait and go together in the next one.
 * Under light load every item is written at once, alone (no added latency); under heavy load the
 * batches grow, so the database sees one statement per batch instead of one per item.
 */
export class GroupCommit<T> {
  private readonly queue: Array<Entry<T>> = [];
  private writing = 0;
  private readonly idle: Array<() => void> = [];

  constructor(private readonly options: GroupCommitOptions<T>) {}

  /** Resolves once the item's batch is written; rejects with the batch's error. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  /** Resolves when nothing is queued or being written. */
  async drained(): Promise<void> {
    if (this.queue.length === 0 && this.writing === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.queue.length > 0 && this.writing < (this.options.maxConcurrent ?? 1)) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.writing += 1;
      void this.writeBatch(batch).finally(() => {
        this.writing -= 1;
        this.pump();
        if (this.queue.length === 0 && this.writing === 0) this.idle.splice(0).forEach((resolve) => resolve());
      });
    }
  }

  private async writeBatch(batch: Array<Entry<T>>): Promise<void> {
    try {
      await this.options.write(batch.map((entry) => entry.item));
      batch.forEach((entry) => entry.resolve());
    } catch (error) {
      if (!this.options.splitOnFailure || batch.length === 1) {
        batch.forEach((entry) => entry.reject(error));
        return;
      }
      for (const entry of batch) {
        await this.options.write([entry.item]).then(entry.resolve, entry.reject);
      }
    }
  }
}
