/**
 * The wait between two polls of a background loop (outbox relay, task runner): it ends at the
 * timeout, on `interrupt()` (shutdown), or on `nudge()` (new work committed) when the loop asked to
 * be woken by nudges. A nudge that arrives while the loop is busy is remembered for its next wait.
 */
export class Wakeup {
  private pending = false;
  private current?: { wake: () => void; onNudge: boolean };

  nudge(): void {
    this.pending = true;
    if (this.current?.onNudge) this.current.wake();
  }

  interrupt(): void {
    this.current?.wake();
  }

  /** `onNudge: false` while backing off after failures: new work must not end the backoff. */
  sleep(ms: number, options: { onNudge: boolean } = { onNudge: true }): Promise<void> {
    if (options.onNudge && this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake(), ms);
      const wake = () => {
        clearTimeout(timer);
        this.current = undefined;
        if (options.onNudge) this.pending = false;
        resolve();
      };
      this.current = { wake, onNudge: options.onNudge };
    });
  }
}
