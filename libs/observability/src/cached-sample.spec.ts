import { CachedSample } from './cached-sample';

describe('CachedSample', () => {
  it('reads once per max age, shares a read between concurrent callers, and reads again when it is old', async () => {
    let now = 1_000;
    let reads = 0;
    const sample = new CachedSample(async () => ++reads, { maxAgeMs: 5_000, timeoutMs: 100, now: () => now });
    expect(await Promise.all([sample.get(), sample.get()])).toEqual([1, 1]);
    now += 4_999;
    expect(await sample.get()).toBe(1);
    now += 1;
    expect(await sample.get()).toBe(2);
    expect(reads).toBe(2);
  });

  it('keeps a failure for the max age too (an outage is not read at every scrape), then tries again', async () => {
    let now = 0;
    let fail = true;
    let reads = 0;
    const sample = new CachedSample(
      async () => {
        reads += 1;
        if (fail) throw new Error('database down');
        return 'ok';
      },
      { maxAgeMs: 1_000, timeoutMs: 100, now: () => now },
    );
    await expect(sample.get()).rejects.toThrow('database down');
    fail = false;
    await expect(sample.get()).rejects.toThrow('database down');
    now = 1_000;
    await expect(sample.get()).resolves.toBe('ok');
    expect(reads).toBe(2);
  });

  it('gives up on a read that takes longer than the timeout', async () => {
    const sample = new CachedSample(() => new Promise<number>(() => undefined), { maxAgeMs: 1_000, timeoutMs: 30 });
    await expect(sample.get()).rejects.toThrow('timed out after 30 ms');
  });
});
