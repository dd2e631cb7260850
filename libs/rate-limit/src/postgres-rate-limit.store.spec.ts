import { DataSource } from 'typeorm';
import { PostgresRateLimitStore } from './postgres-rate-limit.store';

/** The counters of an increment statement (its one jsonb parameter) as parallel lists. */
function counterColumns(param: unknown): [string[], string[], number[], number[]] {
  const counters = JSON.parse(param as string) as Array<{ scope: string; key_hash: string; window_start: number; count: number }>;
  return [counters.map((c) => c.scope), counters.map((c) => c.key_hash), counters.map((c) => c.window_start), counters.map((c) => c.count)];
}

describe('PostgresRateLimitStore', () => {
  it('gives concurrent hits of one counter consecutive places in its count, one row per counter', async () => {
    const counts = new Map<string, number>([['intake\nk1\n60000', 10]]);
    const statements: unknown[][] = [];
    const dataSource = {
      query: jest.fn(async (_sql: string, [param]: [string]) => {
        const [scopes, keys, windows, increments] = counterColumns(param);
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

describe('PostgresRateLimitStore with a window longer than a minute', () => {
  it('stores its counter under its last minute, which the sweep keeps until a minute after the window ends', async () => {
    const hour = Date.UTC(2026, 0, 1, 12);
    const rows = new Map<string, number>();
    const dataSource = {
      query: jest.fn(async (sql: string, params: unknown[]) => {
        if (sql.startsWith('DELETE')) {
          for (const id of [...rows.keys()]) if (Number(id.split('\n')[2]) < (params[0] as number)) rows.delete(id);
          return [];
        }
        if (sql.startsWith('SELECT')) {
          const [scope, window, keys] = params as [string, number, string[]];
          return keys.filter((key) => rows.has(`${scope}\n${key}\n${window}`)).map((key) => ({ key_hash: key, count: rows.get(`${scope}\n${key}\n${window}`) }));
        }
        const [scopes, keys, windows, increments] = counterColumns(params[0]);
        return scopes.map((scope, index) => {
          const id = `${scope}\n${keys[index]}\n${windows[index]}`;
          rows.set(id, (rows.get(id) ?? 0) + increments[index]);
          return { scope, key_hash: keys[index], window_start: String(windows[index]), count: rows.get(id) };
        });
      }),
    } as unknown as DataSource;
    const store = new PostgresRateLimitStore(dataSource);
    expect(await store.increment('checks', 'account', hour, 3_600_000)).toBe(1);
    expect([...rows.keys()]).toEqual([`checks\naccount\n${hour + 59 * 60_000}`]);
    await store.purge(hour + 30 * 60_000);
    expect(await store.read('checks', ['account'], hour, 3_600_000)).toEqual([1]);
    expect(await store.increment('checks', 'account', hour, 3_600_000)).toBe(2);
    await store.purge(hour + 3_600_000 + 61_000);
    expect(await store.read('checks', ['account'], hour, 3_600_000)).toEqual([0]);
    await store.close();
  });
});
