import { DataSource } from 'typeorm';
import { WriteCoalescer } from '@courier/persistence';
import { RATE_LIMIT_WINDOW_MS, RateLimitStore } from './rate-limit.store';

interface Hit {
  scope: string;
  keyHash: string;
  windowStart: number;
}

/**
 * Counters in the app's UNLOGGED table rate_limit_counters, so the one-machine mode and deployments
 * without Redis still share a limit across replicas. Each request is counted by an upsert;
 * concurrent ones share a statement (`count + n`), and each learns its own position in the
 * window's count, exactly as if they had run one by one. Old windows are deleted by RateLimitSweep.
 * A window longer than a minute is stored under its last minute (`window_start` column), so the
 * sweep, which deletes counters two minutes old, keeps it for the whole window without a column
 * of its own.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  readonly kind = 'postgres' as const;
  private readonly hits = new WriteCoalescer<Hit, number>((hits) => this.countBatch(hits), { maxBatch: 500, maxInFlight: 2 });

  constructor(private readonly dataSource: DataSource) {}

  increment(scope: string, key: string, windowStart: number, windowMs = RATE_LIMIT_WINDOW_MS): Promise<number> {
    return this.hits.submit({ scope, keyHash: key, windowStart: storedWindowStart(windowStart, windowMs) });
  }

  async read(scope: string, keys: string[], windowStart: number, windowMs = RATE_LIMIT_WINDOW_MS): Promise<number[]> {
    const rows: Array<{ key_hash: string; count: number }> = await this.dataSource.query(
      'SELECT key_hash, count FROM rate_limit_counters WHERE scope = $1 AND window_start = $2 AND key_hash = ANY($3::text[])',
      [scope, storedWindowStart(windowStart, windowMs), keys],
    );
    const counts = new Map(rows.map((row) => [row.key_hash, Number(row.count)]));
    return keys.map((key) => counts.get(key) ?? 0);
  }

  async purge(now = Date.now()): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limit_counters WHERE window_start < $1', [now - 2 * RATE_LIMIT_WINDOW_MS]);
  }

  async close(): Promise<void> {}

  private async countBatch(hits: Hit[]): Promise<number[]> {
    // One row per counter (an upsert may touch a row once per statement), with its number of hits.
    const counters = new Map<string, { hit: Hit; indexes: number[] }>();
    hits.forEach((hit, index) => {
      const id = `${hit.scope}\n${hit.keyHash}\n${hit.windowStart}`;
      const counter = counters.get(id);
      if (counter) counter.indexes.push(index);
      else counters.set(id, { hit, indexes: [index] });
    });
    const entries = [...counters.values()];
    const rows: Array<{ scope: string; key_hash: string; window_start: string; count: number }> = await this.dataSource.query(
      `INSERT INTO rate_limit_counters (scope, key_hash, window_start, count)
       SELECT scope, key_hash, window_start, count FROM jsonb_to_recordset($1::jsonb) AS c(scope text, key_hash text, window_start bigint, count int)
       ON CONFLICT (scope, key_hash, window_start) DO UPDATE SET count = rate_limit_counters.count + excluded.count
       RETURNING scope, key_hash, window_start, count`,
      [JSON.stringify(entries.map((entry) => ({ scope: entry.hit.scope, key_hash: entry.hit.keyHash, window_start: entry.hit.windowStart, count: entry.indexes.length })))],
    );
    const counts = new Array<number>(hits.length);
    for (const row of rows) {
      // The window's count after this statement; the batch's hits take its last n places.
      const entry = counters.get(`${row.scope}\n${row.key_hash}\n${row.window_start}`)!;
      const first = row.count - entry.indexes.length;
      entry.indexes.forEach((index, position) => (counts[index] = first + position + 1));
    }
    return counts;
  }
}

/** The minute a window's counter is stored under: its last (the window itself for a one-minute window). */
export function storedWindowStart(windowStart: number, windowMs: number): number {
  return windowStart + Math.max(windowMs, RATE_LIMIT_WINDOW_MS) - RATE_LIMIT_WINDOW_MS;
}
