/** Why an item went to the durable path instead of running in this process. */
export type LaneHandOff = 'full' | 'lease' | 'stopping';

/** Where an offered item goes: run now, wait in line, or the durable path (and why). */
export type LanePlace = 'run' | 'line' | LaneHandOff;

/** Where an item offered to a lane goes, from the lane's counts (pure, the lane's one rule). */
export function lanePlace(facts: { stopping: boolean; leaseOver: boolean; free: number; waiting: number; lineLimit: number }): LanePlace {
  if (facts.stopping) return 'stopping';
  if (facts.leaseOver) return 'lease';
  if (facts.free > 0) return 'run';
  return facts.waiting < facts.lineLimit ? 'line' : 'full';
}

export interface LaneOptions<T> {
  /** Items running at once at most (reserved slots included). */
  concurrency: number;
  /** Items waiting in line for a slot at most; 0: an item without a free slot goes to the durable path at once. */
  lineLimit?: number;
  /** The work of one item. A rejection is the caller's to log: the lane only frees the slot. */
  run: (item: T) => Promise<void>;
  /** Gives an item to the durable path: not taken (`full`, `stopping`) or its lease ran out in line (`lease`). Must not throw. */
  handOff?: (item: T, why: LaneHandOff) => void;
  /** The latest time (epoch ms) the item may still start here (undefined: any time); past it, in line, it is handed off. */
  startBy?: (item: T) => number | undefined;
  /** A running item finished, so its slot is free (a pump claiming durable work into free slots listens). */
  onSlotFree?: () => void;
  /** Epoch ms; injected by tests. */
  now?: () => number;
}

/**
 * A bounded lane in front of a durable runner: work this process can do right away (it just wrote
 * the row and holds what the work needs) runs here, at most `concurrency` at once, and waits in a
 * bounded line otherwise; what cannot run here (line full, lease run out while waiting, shutdown)
 * goes to the durable path, which takes it over once its lease has run out. It saves the durable
 * runner's claim and poll per item. Nothing is lost when the process dies: the durable row is the
 * truth, the lane only runs it sooner.
 *
 * Two ways in: `offer(item)` for work already leased (it runs, waits in line or is handed off), and
 * `reserve(n)` / `start(slots, items)` for work whose lease is written only when a slot is free
 * (the caller reserves first, writes the lease for the reserved items, then starts them).
 */
export class Lane<T> {
  private readonly running = new Set<Promise<void>>();
  private readonly line: T[] = [];
  private reserved = 0;
  private stopping = false;
  private readonly lineLimit: number;
  private readonly now: () => number;
  private idle?: { promise: Promise<void>; resolve: () => void };

  constructor(private readonly options: LaneOptions<T>) {
    this.lineLimit = options.lineLimit ?? 0;
    this.now = options.now ?? Date.now;
  }

  /** Slots neither running nor reserved (0 once draining). */
  get free(): number {
    return this.stopping ? 0 : Math.max(0, this.options.concurrency - this.running.size - this.reserved);
  }

  /** Items running or reserved now (0 when idle). */
  get busy(): number {
    return this.running.size + this.reserved;
  }

  get waiting(): number {
    return this.line.length;
  }

  get draining(): boolean {
    return this.stopping;
  }

  /** Takes a leased item: runs it now, lines it up, or hands it to the durable path (also when its lease is already over). */
  offer(item: T): LanePlace {
    const place = lanePlace({ stopping: this.stopping, leaseOver: this.leaseOver(item), free: this.free, waiting: this.line.length, lineLimit: this.lineLimit });
    if (place === 'run') this.launch(item);
    else if (place === 'line') this.line.push(item);
    else this.options.handOff?.(item, place);
    return place;
  }

  /** Sets aside up to `wanted` free slots for items about to be leased; returns how many (0 when draining or full). */
  reserve(wanted = 1): number {
    const slots = Math.min(wanted, this.free);
    this.reserved += slots;
    return slots;
  }

  /** Runs up to `slots` items under a reservation of `slots` and gives the slots left over back. */
  start(slots: number, items: T[]): void {
    const taken = items.slice(0, slots);
    this.reserved -= slots;
    for (const item of taken) this.launch(item);
    if (taken.length < slots) this.slotsFreed(false);
  }

  /** Gives back a reservation whose items were not leased. */
  release(slots = 1): void {
    this.start(slots, []);
  }

  /**
   * Takes nothing more, hands those in line to the durable path (`stopping`) and resolves once the
   * running and reserved items are done. Bounded by `graceMs` when given (what is cut off is the
   * durable path's once its lease runs out).
   */
  async drain(graceMs?: number): Promise<void> {
    this.stopping = true;
    for (const item of this.line.splice(0)) this.options.handOff?.(item, 'stopping');
    const done = this.whenIdle();
    if (graceMs === undefined) return done;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    timer?.unref();
    await Promise.race([done, grace]);
    clearTimeout(timer);
  }

  private whenIdle(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    if (!this.idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.idle = { promise, resolve };
    }
    return this.idle.promise;
  }

  private leaseOver(item: T): boolean {
    const startBy = this.options.startBy?.(item);
    return startBy !== undefined && this.now() > startBy;
  }

  private launch(item: T): void {
    let work: Promise<void>;
    try {
      work = this.options.run(item);
    } catch (error) {
      work = Promise.reject(error);
    }
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.then(() => {
      this.running.delete(settled);
      this.slotsFreed(true);
    });
    // The caller's run logs its own failures; the lane must not turn them into unhandled rejections.
    work.catch(() => undefined);
  }

  /** Fills free slots from the line (handing off items whose lease ran out while waiting); tells listeners when an item finished. */
  private slotsFreed(finished: boolean): void {
    while (this.free > 0 && this.line.length > 0) {
      const next = this.line.shift()!;
      if (this.leaseOver(next)) this.options.handOff?.(next, 'lease');
      else this.launch(next);
    }
    if (this.busy === 0 && this.idle) {
      this.idle.resolve();
      this.idle = undefined;
    }
    if (finished && !this.stopping) this.options.onSlotFree?.();
  }
}
