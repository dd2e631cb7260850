import { GroupCommit } from './group-commit';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('GroupCommit', () => {
  it('writes a lone item at once, and what arrives meanwhile in the next batch', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const group = new GroupCommit<number>({
      maxBatch: 10,
      write: async (items) => {
        batches.push(items);
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const first = group.add(1);
    await tick();
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => group.add(item));
    await tick();
    expect(batches).toHaveLength(1);
    release();
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('caps the batch size and the batches in flight', async () => {
    const sizes: number[] = [];
    let concurrent = 0;
    let peak = 0;
    const group = new GroupCommit<number>({
      maxBatch: 3,
      maxConcurrent: 2,
      write: async (items) => {
        concurrent += 1;
        peak = Math.max(peak, concurrent);
        sizes.push(items.length);
        await tick();
        concurrent -= 1;
      },
    });
    await Promise.all(Array.from({ length: 20 }, (_, index) => group.add(index)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(20);
    expect(peak).toBe(2);
    await group.drained();
  });

  it('with splitOnFailure, writes a failed batch item by item so that only the bad item fails', async () => {
    const written: string[][] = [];
    let release!: () => void;
    const group = new GroupCommit<string>({
      maxBatch: 10,
      splitOnFailure: true,
      write: async (items) => {
        written.push(items);
        if (items[0] === 'first') await new Promise<void>((resolve) => (release = resolve));
        if (items.includes('poison')) throw new Error('bad item');
      },
    });
    const first = group.add('first');
    await tick();
    const results = Promise.allSettled(['a', 'poison', 'b'].map((item) => group.add(item)));
    release();
    await first;
    expect((await results).map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(written).toEqual([['first'], ['a', 'poison', 'b'], ['a'], ['poison'], ['b']]);
  });

  it('fails every item of a failed batch, and goes on with the next', async () => {
    let calls = 0;
    const group = new GroupCommit<string>({
      maxBatch: 10,
      write: async (items) => {
        calls += 1;
        if (items.includes('poison')) throw new Error('batch failed');
      },
    });
    const results = await Promise.allSettled([group.add('poison')]);
    expect(results[0].status).toBe('rejected');
    await expect(group.add('fine')).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
