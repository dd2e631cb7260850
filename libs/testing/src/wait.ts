/** Polls `probe` until it returns a truthy value or the deadline passes (then throws with `what`). */
export async function waitFor<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 15_000, intervalMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Rate limits count in fixed minutes: a test that must see one window whole starts it with at
 * least `needMs` of the current minute left (else it waits for the next minute to begin).
 */
export async function awayFromWindowEdge(needMs = 2_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await sleep(left + 50);
}
