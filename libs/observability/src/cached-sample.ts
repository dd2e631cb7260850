/**
 * A value read from a dependency at most once per `maxAgeMs`, with a time limit: scrapes (several
 * Prometheus servers, a dashboard) share one read, and a slow database or broker cannot hold a
 * scrape for longer than `timeoutMs`. A failed read is kept for `maxAgeMs` as well, so an outage is
 * not hammered by every scrape.
 */
export class CachedSample<T> {
  private pending?: Promise<T>;
  private readAt = 0;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly options: { maxAgeMs: number; timeoutMs: number; now?: () => number },
  ) {}

  get(): Promise<T> {
    const now = (this.options.now ?? Date.now)();
    if (!this.pending || now - this.readAt >= this.options.maxAgeMs) {
      this.readAt = now;
      this.pending = withTimeout(this.read(), this.options.timeoutMs);
      // Read by whichever scrape comes; an unobserved failure must not surface as unhandled.
      this.pending.catch(() => undefined);
    }
    return this.pending;
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
