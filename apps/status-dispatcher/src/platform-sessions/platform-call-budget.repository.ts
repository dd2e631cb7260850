import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

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
        `UPDATE platform_call_budgets b SET calls = v.calls, updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS v(scope text, calls bigint[]) WHERE b.scope = v.scope`,
        [JSON.stringify(keys.map((scope, index) => ({ scope, calls: calls[index] })))],
      );
      return result;
    });
  }
}
