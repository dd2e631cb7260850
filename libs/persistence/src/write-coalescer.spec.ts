import { WriteCoalescer } from './write-coalescer';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WriteCoalescer', () => {
  it('flushes a lone item at once and batches what queues while flushes run', async () => {
    const batches: number[][] = [];
    const releases: Array<() => void> = [];
    const coalescer = new WriteCoalescer<number, number>(
      async (items) => {
        batches.push(items);
        await new Promise<void>((resolve) => releases.push(resolve));
        return items.map((item) => item * 10);
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const first = coalescer.submit(1);
    await tick();
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4, 5].map((item) => coalescer.submit(item));
    await tick();
    expect(batches).toHaveLength(1);
    releases.shift()!();
    expect(await first).toBe(10);
    await tick();
    expect(batches[1]).toEqual([2, 3, 4]);
    releases.shift()!();
    await tick();
    releases.shift()!();
    expect(await Promise.all(rest)).toEqual([20, 30, 40, 50]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('retries a failed batch item by item, so one bad item fails alone', async () => {
    const coalescer = new WriteCoalescer<number, number>(
      async (items) => {
        if (items.includes(13)) throw new Error(`bad batch ${items.join(',')}`);
        return items;
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const blocker = coalescer.submit(0);
    const results = await Promise.allSettled([12, 13, 14].map((item) => coalescer.submit(item)));
    await blocker;
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('bad batch 13');
  });

  it('refuses a flush that answers the wrong number of results', async () => {
    const coalescer = new WriteCoalescer<number, number>(async () => [], { maxBatch: 10, maxInFlight: 2 });
    await expect(coalescer.submit(1)).rejects.toThrow('flush returned 0 results for 1 items');
  });

  // Ported from the webhook sender's group commit (now this class).
  it('caps the batch size and the flushes in flight, and says when it is drained', async () => {
    const sizes: number[] = [];
    let concurrent = 0;
    let peak = 0;
    const coalescer = new WriteCoalescer<number, void>(
      async (items) => {
        concurrent += 1;
        peak = Math.max(peak, concurrent);
        sizes.push(items.length);
        await tick();
        concurrent -= 1;
        return items.map(() => undefined);
      },
      { maxBatch: 3, maxInFlight: 2 },
    );
    const all = Promise.all(Array.from({ length: 20 }, (_, index) => coalescer.submit(index)));
    let drained = false;
    const whenDrained = coalescer.drained().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    await all;
    await whenDrained;
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(20);
    expect(peak).toBe(2);
    await coalescer.drained();
  });

  /** Submits `first` (held until the others are queued), then `items` as one batch where 'poison' fails it; the batches written and the items' fates. */
  async function poisonedBatch(items: string[], splitOnFailure?: boolean) {
    const written: string[][] = [];
    let release!: () => void;
    const coalescer = new WriteCoalescer<string, void>(
      async (batch) => {
        written.push(batch);
        if (batch[0] === 'first') await new Promise<void>((resolve) => (release = resolve));
        if (batch.includes('poison')) throw new Error('bad item');
        return batch.map(() => undefined);
      },
      { maxBatch: 10, maxInFlight: 1, splitOnFailure },
    );
    const first = coalescer.submit('first');
    await tick();
    const results = Promise.allSettled(items.map((item) => coalescer.submit(item)));
    release();
    await first;
    return { coalescer, written, statuses: (await results).map((result) => result.status) };
  }

  it('retries a failed batch item by item in arrival order', async () => {
    const { written, statuses } = await poisonedBatch(['a', 'poison', 'b']);
    expect(statuses).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(written).toEqual([['first'], ['a', 'poison', 'b'], ['a'], ['poison'], ['b']]);
  });

  it('with splitOnFailure false, fails every item of a failed batch, and goes on with the next', async () => {
    const { coalescer, written, statuses } = await poisonedBatch(['a', 'poison'], false);
    expect(statuses).toEqual(['rejected', 'rejected']);
    await expect(coalescer.submit('fine')).resolves.toBeUndefined();
    expect(written).toEqual([['first'], ['a', 'poison'], ['fine']]);
  });
});
