import { DataSource } from 'typeorm';
import { PostgresRateLimitStore } from './postgres-rate-limit.store';

describe('PostgresRateLimitStore', () => {
  it('gives concurrent hits of one counter consecutive places in its count, one row per counter', async () => {
    const counts = new Map<string, number>([['intake\nk1\n60000', 10]]);
    const statements: unknown[][] = [];
    const dataSource = {
      query: jest.fn(async (_sql: string, [scopes, keys, windows, increments]: [string[], string[], number[], number[]]) => {
        statements.push(scopes);
        return scopes.map((scope, index) => {
          const id = `${scope}\n${keys[index]}\n${windows[index]}`;
          counts.set(id, (counts.get(id) ?? 0) + increments[index]);
          return { scope, key_hash: keys[index], window_start: String(windows[index]), count: counts.get(id) };
        });
      }),
    } as unknown as DataSource;
    const store = new PostgresRateLimitStore(dataSource);
    const hits = await Promise.all([
      store.increment('intake', 'k1', 60000),
      store.increment('intake', 'k1', 60000),
      store.increment('read', 'k1', 60000),
      store.increment('intake', 'k1', 60000),
      store.increment('intake', 'k2', 60000),
      store.increment('intake', 'k1', 60000),
    ]);
    await store.close();
    // The first hit went alone (nothing in flight); the others were batched by counter.
    expect(hits).toEqual([11, 12, 1, 13, 1, 14]);
    expect(statements.length).toBeLessThanOrEqual(3);
  });
});
