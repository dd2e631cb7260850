/** At most `limit` read-backs per store in any window (per replica): forged webhooks cannot spend a store's calls. */
export class ReadBackLimiter {
  private readonly calls = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(storeId: string, now = Date.now()): boolean {
    const recent = (this.calls.get(storeId) ?? []).filter((at) => at > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.calls.set(storeId, recent);
      return false;
    }
    recent.push(now);
    this.calls.set(storeId, recent);
    if (this.calls.size > 10_000) for (const [store, times] of this.calls) if (times.every((at) => at <= now - this.windowMs)) this.calls.delete(store);
    return true;
  }
}
