/** Gives back a slot; `latencyMs` of the exchange teaches the limiter how fast the host is. */
export type ReleaseSlot = (latencyMs?: number) => void;

export interface HostLimiterOptions {
  /** Exchanges in flight per host (WEBHOOK_MAX_CONCURRENCY_PER_HOST). */
  perHost: number;
  /** A host answering slower than this on average is slow: nothing waits for its slots. */
  slowMs?: number;
  /** Longest a delivery waits in memory for a slot before it is put off. */
  maxWaitMs?: number;
  /** Deliveries of a host that is not slow one claim may take beyond those in process (default 2 x perHost). */
  fastAllowance?: number;
  random?: () => number;
}

/** How many more deliveries of a host a claim may take, and how far apart to put off the rest (slow hosts only). */
export interface ClaimLimit {
  allowance: number;
  deferStepMs?: number;
}

interface Waiter {
  grant: (release: ReleaseSlot | undefined) => void;
  timer: NodeJS.Timeout;
}

interface HostState {
  active: number;
  waiters: Waiter[];
  /** Moving average of exchange times; undefined until one finished. */
  averageMs?: number;
  usedAt: number;
}

/** Idle hosts are forgotten once this many are known, the ones idle longest first. */
const MAX_KNOWN_HOSTS = 1_000;

/**
 * The receiver key of a URL: its host and port as written (lower case), in the same form as the
 * `host` column the claim groups by (DeliveriesRepository's hostKeySql).
 */
export function hostKey(url: string): string {
  return (/^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? url).toLowerCase();
}

/**
 * Bounded concurrency per receiver host in this process, so a slow or dead receiver holds at most
 * `perHost` exchanges and never the slots other receivers need. It works with the claim: the pump
 * asks `claimLimits()` before each claim, which takes at most `perHost` more of a slow host's
 * deliveries than it has slots free (none wait in memory) and pushes the rest of what it saw back
 * by the host's pace, and of another host a few more than it has slots (they wait briefly in
 * memory: a fast host frees a slot within milliseconds). `acquire` enforces the limit itself.
 */
export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();
  private readonly slowMs: number;
  private readonly maxWaitMs: number;
  private readonly random: () => number;

  constructor(private readonly options: HostLimiterOptions) {
    this.slowMs = options.slowMs ?? 1_000;
    this.maxWaitMs = options.maxWaitMs ?? 5_000;
    this.random = options.random ?? Math.random;
  }

  /** A slot for `host`, at once or after the deliveries ahead in line; undefined when none came free in time. */
  acquire(host: string): Promise<ReleaseSlot | undefined> {
    const state = this.state(host);
    if (state.active < this.options.perHost) {
      state.active += 1;
      return Promise.resolve(this.releaser(state));
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          state.waiters.splice(state.waiters.indexOf(waiter), 1);
          resolve(undefined);
        }, this.maxWaitMs),
      };
      state.waiters.push(waiter);
    });
  }

  /** Limits for the next claim, for every host with deliveries in this process (others: `defaultAllowance`). */
  claimLimits(): Record<string, ClaimLimit> {
    const limits: Record<string, ClaimLimit> = {};
    for (const [host, state] of this.hosts) {
      const inProcess = state.active + state.waiters.length;
      if (inProcess === 0) continue;
      limits[host] = this.isSlow(state)
        ? { allowance: Math.max(0, this.options.perHost - inProcess), deferStepMs: Math.ceil(state.averageMs! / this.options.perHost) }
        : { allowance: Math.max(0, this.defaultAllowance - inProcess) };
    }
    return limits;
  }

  /** Deliveries of a host with none in this process a claim may take: its slots and some waiting. */
  get defaultAllowance(): number {
    return Math.max(this.options.fastAllowance ?? 0, this.options.perHost * 2);
  }

  /** How long to put off a delivery that found no slot in time (jittered, so retries spread out). */
  retryDelayMs(host: string): number {
    const state = this.hosts.get(host);
    const ahead = 1 + Math.floor((state?.waiters.length ?? 0) / this.options.perHost);
    return Math.round(Math.min(Math.max(state?.averageMs ?? 1_000, 10) * ahead, 60_000) * (0.5 + this.random()));
  }

  inFlight(host: string): number {
    return this.hosts.get(host)?.active ?? 0;
  }

  private isSlow(state: HostState): boolean {
    return state.averageMs !== undefined && state.averageMs > this.slowMs;
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      if (this.hosts.size >= MAX_KNOWN_HOSTS) this.forgetIdleHosts();
      state = { active: 0, waiters: [], usedAt: Date.now() };
      this.hosts.set(host, state);
    }
    state.usedAt = Date.now();
    return state;
  }

  private releaser(state: HostState): ReleaseSlot {
    let released = false;
    return (latencyMs?: number) => {
      if (released) return;
      released = true;
      if (latencyMs !== undefined) state.averageMs = state.averageMs === undefined ? latencyMs : state.averageMs * 0.8 + latencyMs * 0.2;
      const next = state.waiters.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant(this.releaser(state));
        return;
      }
      state.active -= 1;
    };
  }

  private forgetIdleHosts(): void {
    const idle = [...this.hosts.entries()].filter(([, state]) => state.active === 0 && state.waiters.length === 0).sort(([, a], [, b]) => a.usedAt - b.usedAt);
    for (const [host] of idle.slice(0, Math.ceil(idle.length / 2))) this.hosts.delete(host);
  }
}
