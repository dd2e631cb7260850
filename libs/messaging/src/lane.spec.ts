import { Lane, LaneHandOff, lanePlace } from './lane';

/** A unit of work the test finishes by hand: no timers, the lane moves only when the test says so. */
class Gate {
  private readonly pending = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  readonly started: string[] = [];

  run = (item: string): Promise<void> => {
    this.started.push(item);
    return new Promise<void>((resolve, reject) => this.pending.set(item, { resolve, reject }));
  };

  async finish(item: string, error?: Error): Promise<void> {
    const entry = this.pending.get(item);
    if (!entry) throw new Error(`${item} is not running`);
    this.pending.delete(item);
    if (error) entry.reject(error);
    else entry.resolve();
    // Let the lane's settle handlers run (microtasks only).
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  }
}

function setup(options: { concurrency: number; lineLimit?: number; startBy?: Record<string, number> }) {
  const gate = new Gate();
  const handedOff: Array<[string, LaneHandOff]> = [];
  let slotFree = 0;
  const clock = { now: 1_000 };
  const lane = new Lane<string>({
    concurrency: options.concurrency,
    lineLimit: options.lineLimit,
    run: gate.run,
    handOff: (item, why) => handedOff.push([item, why]),
    startBy: (item) => options.startBy?.[item],
    onSlotFree: () => (slotFree += 1),
    now: () => clock.now,
  });
  return { lane, gate, handedOff, clock, slotsFreed: () => slotFree };
}

describe('lanePlace', () => {
  const room = { stopping: false, leaseOver: false, free: 1, waiting: 0, lineLimit: 2 };

  it('runs with a free slot, lines up while the line has room, else hands off', () => {
    expect(lanePlace(room)).toBe('run');
    expect(lanePlace({ ...room, free: 0, waiting: 1 })).toBe('line');
    expect(lanePlace({ ...room, free: 0, waiting: 2 })).toBe('full');
    expect(lanePlace({ ...room, free: 0, lineLimit: 0 })).toBe('full');
  });

  it('hands off once stopping or when the lease is already over, whatever the room', () => {
    expect(lanePlace({ ...room, stopping: true })).toBe('stopping');
    expect(lanePlace({ ...room, leaseOver: true })).toBe('lease');
    expect(lanePlace({ ...room, stopping: true, leaseOver: true })).toBe('stopping');
  });
});

describe('Lane', () => {
  it('reserves a slot while fewer than its concurrency are taken and none once draining (none at all with concurrency 0)', async () => {
    const { lane } = setup({ concurrency: 2 });
    expect([lane.reserve(), lane.reserve(), lane.reserve()]).toEqual([1, 1, 0]);
    lane.release(2);
    void lane.drain();
    expect(lane.reserve()).toBe(0);
    expect(setup({ concurrency: 0 }).lane.reserve()).toBe(0);
  });


  it('runs up to its concurrency, lines the rest up, hands off past the line, and starts the next one when a slot frees', async () => {
    const { lane, gate, handedOff, slotsFreed } = setup({ concurrency: 2, lineLimit: 1 });
    expect(['a', 'b', 'c', 'd'].map((item) => lane.offer(item))).toEqual(['run', 'run', 'line', 'full']);
    expect(gate.started).toEqual(['a', 'b']);
    expect(handedOff).toEqual([['d', 'full']]);
    expect(lane.waiting).toBe(1);

    await gate.finish('a');
    expect(gate.started).toEqual(['a', 'b', 'c']);
    expect(lane.waiting).toBe(0);
    expect(slotsFreed()).toBe(1);
  });

  it('a failing item frees its slot like a finished one', async () => {
    const { lane, gate } = setup({ concurrency: 1, lineLimit: 1 });
    lane.offer('a');
    lane.offer('b');
    await gate.finish('a', new Error('boom'));
    expect(gate.started).toEqual(['a', 'b']);
    expect(lane.busy).toBe(1);
  });

  it('hands an item whose lease ran out while it waited in line to the durable path instead of running it', async () => {
    const { lane, gate, handedOff, clock } = setup({ concurrency: 1, lineLimit: 5, startBy: { b: 1_500, c: 5_000 } });
    lane.offer('a');
    lane.offer('b');
    lane.offer('c');
    clock.now = 2_000;
    await gate.finish('a');
    expect(handedOff).toEqual([['b', 'lease']]);
    expect(gate.started).toEqual(['a', 'c']);
  });

  it('hands off at once an item whose lease is already over', () => {
    const { lane, gate, handedOff } = setup({ concurrency: 1, startBy: { late: 999 } });
    expect(lane.offer('late')).toBe('lease');
    expect(handedOff).toEqual([['late', 'lease']]);
    expect(gate.started).toEqual([]);
  });

  it('reserves slots for items about to be leased, starts them, and gives unused slots back', async () => {
    const { lane, gate, slotsFreed } = setup({ concurrency: 3 });
    expect(lane.reserve(5)).toBe(3);
    expect(lane.free).toBe(0);
    expect(lane.offer('x')).toBe('full');
    lane.start(3, ['a', 'b']);
    expect(gate.started).toEqual(['a', 'b']);
    expect(lane.free).toBe(1);
    // Only a finished item tells the listener: a reservation given back is no new room for claimed work.
    expect(slotsFreed()).toBe(0);
    expect(lane.reserve()).toBe(1);
    lane.release();
    expect(lane.free).toBe(1);
    expect(lane.busy).toBe(2);
  });

  it('drain takes nothing more, hands off the line, and resolves once the running and reserved items are done', async () => {
    const { lane, gate, handedOff, slotsFreed } = setup({ concurrency: 2, lineLimit: 5 });
    lane.offer('a');
    expect(lane.reserve()).toBe(1);
    lane.offer('b');
    let drained = false;
    const draining = lane.drain().then(() => (drained = true));
    expect(handedOff).toEqual([['b', 'stopping']]);
    expect(lane.offer('c')).toBe('stopping');
    expect(lane.reserve()).toBe(0);

    await gate.finish('a');
    expect(drained).toBe(false);
    // The reserved slot's item is started after all (its lease was written before the drain).
    lane.start(1, ['r']);
    await gate.finish('r');
    await draining;
    expect(drained).toBe(true);
    expect(gate.started).toEqual(['a', 'r']);
    // No listener is told about free slots while draining (nothing would be claimed into them).
    expect(slotsFreed()).toBe(0);
  });

  it('drain of an idle lane resolves at once', async () => {
    const { lane } = setup({ concurrency: 1 });
    await expect(lane.drain()).resolves.toBeUndefined();
  });

  it('a drain bounded by a grace period resolves once the grace has passed, with work still running', async () => {
    jest.useFakeTimers();
    try {
      const { lane, gate } = setup({ concurrency: 1 });
      lane.offer('slow');
      let drained = false;
      const draining = lane.drain(1_000).then(() => (drained = true));
      await jest.advanceTimersByTimeAsync(999);
      expect(drained).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await draining;
      expect(drained).toBe(true);
      expect(lane.busy).toBe(1);
      await gate.finish('slow');
    } finally {
      jest.useRealTimers();
    }
  });
});
