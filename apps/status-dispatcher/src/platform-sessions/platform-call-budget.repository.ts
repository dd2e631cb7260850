import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/**
 * A call booked in one budget scope only if it has room at `at` (epoch ms, the app's clock as every
 * booking uses): what a push books in its own statement for the call it is about to make.
 */
export interface ScopeBookingNow {
  scope: string;
  limit: number;
  windowMs: number;
  count: number;
  at: number;
}

/**
 * The SQL of one `ScopeBookingNow` (its JSON in `param`), for a data-modifying CTE: books the call in
 * its scope's row only if bookCallBudget would book it at `at` itself (room now), and returns the
 * row's scope when it did. The rule of bookCallBudget at `at` on one scope: the scope's last call is
 * not later than `at` and the request `limit - count` places before the end of the log has left the
 * window; the log keeps the calls still in the window and the new ones, at most `limit`. The row is
 * created when it is missing (an empty log has room) and locked by the upsert, so concurrent bookings
 * of the scope are decided one after the other on its newest log. `from` is what the booking depends
 * on (its rows are booked once each: give a FROM list with one row, or none).
 */
export function scopeBookingNowSql(param: string, from: string): string {
  const field = (name: string, type: string) => `(${param}->>'${name}')::${type}`;
  const [at, limit, windowMs] = [field('at', 'bigint'), field('limit', 'int'), field('windowMs', 'bigint')];
  // Never null, even for a statement whose booking is absent: the planner folds array_fill's constant dimensions.
  const count = `coalesce(${field('count', 'int')}, 0)`;
  const n = 'cardinality(b.calls)';
  const kept = `ARRAY(SELECT c FROM unnest(b.calls) WITH ORDINALITY AS l(c, i) WHERE c > ${at} - ${windowMs} ORDER BY i) || array_fill(${at}, ARRAY[${count}])`;
  return `INSERT INTO platform_call_budgets AS b (scope, calls)
           SELECT ${param}->>'scope', array_fill(${at}, ARRAY[${count}]) FROM ${from}
           ON CONFLICT (scope) DO UPDATE SET calls = (SELECT k[greatest(1, cardinality(k) - ${limit} + 1):] FROM (SELECT ${kept} AS k) AS booked), updated_at = now()
            WHERE (${n} = 0 OR b.calls[${n}] <= ${at}) AND (${n} + ${count} - ${limit} <= 0 OR b.calls[${n} + ${count} - ${limit}] + ${windowMs} <= ${at})
           RETURNING b.scope`;
}

/**
 * `platform_call_budgets`: per budget scope (platform, scope, integration and credentials) the
 * times (epoch ms) of the calls booked in it, shared by the replicas.
 */
@Injectable()
export class PlatformCallBudgetRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Books in the scopes `keys` in one short transaction: their rows are created if needed and locked
   * (in a fixed order, so two bookings cannot deadlock), `plan` decides from their logged calls, and
   * the calls it returns (one list per key, in the order of `keys`) replace the logged ones. The lock
   * keeps two replicas from booking the same room.
   */
  book<T>(keys: string[], plan: (logged: number[][]) => { calls: number[][]; result: T }): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const rows: Array<{ scope: string; calls: string[] }> = await manager.query(
        `INSERT INTO platform_call_budgets (scope) SELECT unnest($1::text[]) AS scope ORDER BY scope
         ON CONFLICT (scope) DO UPDATE SET updated_at = now() RETURNING scope, calls`,
        [keys],
      );
      const logged = new Map(rows.map((row) => [row.scope, row.calls.map(Number)]));
      const { calls, result } = plan(keys.map((key) => logged.get(key) ?? []));
      await manager.query(
        `UPDATE platform_call_budgets b SET calls = ARRAY(SELECT json_array_elements_text(v.value)::bigint), updated_at = now()
           FROM json_each($1::json) v WHERE b.scope = v.key`,
        [JSON.stringify(Object.fromEntries(keys.map((key, index) => [key, calls[index]])))],
      );
      return result;
    });
  }
}
