import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ConfigurationError } from '@courier/config';
import type { StatusPushAction } from '@courier/domain';
import { bookCallBudget, budgetScopesOf, CallBudget, IntegrationCredentials, PlatformAdapters } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { CredentialFingerprints } from './credential-fingerprints';

/** `PLATFORM_A:token=40/1300,...`: limit and window (ms) per platform scope. */
export function parseCallBudgetOverrides(raw: string | undefined): Map<string, { limit: number; windowMs: number }> {
  const overrides = new Map<string, { limit: number; windowMs: number }>();
  for (const entry of (raw ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
    const match = /^([A-Z0-9_]+:[a-z0-9-]+)=(\d+)\/(\d+)$/.exec(entry);
    if (!match || Number(match[2]) < 1 || Number(match[3]) < 1) throw new ConfigurationError([`PLATFORM_CALL_BUDGETS: "${entry}" is not PLATFORM:scope=limit/windowMs (positive integers)`]);
    overrides.set(match[1], { limit: Number(match[2]), windowMs: Number(match[3]) });
  }
  return overrides;
}

/**
 * The platforms' call budgets, kept per integration and credentials in PostgreSQL (table
 * `platform_call_budgets`), shared by the replicas: a status call books its requests in every scope
 * of its platform before it is made (docs/platform-dispatch.md, "Platform sessions and call budgets").
 */
@Injectable()
export class PlatformCallBudgets {
  private readonly budgets = new Map<string, CallBudget>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    adapters: PlatformAdapters,
    config: DispatcherConfig,
    private readonly fingerprints: CredentialFingerprints,
  ) {
    const overrides = parseCallBudgetOverrides(config.PLATFORM_CALL_BUDGETS);
    for (const code of adapters.codes()) {
      const budget = adapters.get(code)!.callBudget;
      if (!budget) continue;
      const scopes = budget.scopes.map((scope) => {
        const override = overrides.get(`${code}:${scope.name}`);
        overrides.delete(`${code}:${scope.name}`);
        const most = Math.max(...Object.values(scope.requests).map(Number));
        if (override && override.limit < most) throw new ConfigurationError([`PLATFORM_CALL_BUDGETS: ${code}:${scope.name} needs a limit of at least ${most} (the requests of one call)`]);
        return { ...scope, ...override };
      });
      this.budgets.set(code, { scopes });
    }
    if (overrides.size > 0) throw new ConfigurationError([`PLATFORM_CALL_BUDGETS: no platform has the scope ${[...overrides.keys()].join(', ')}`]);
  }

  budgetOf(platform: string): CallBudget | undefined {
    return this.budgets.get(platform);
  }

  /**
   * Books room for one status call in every scope of its platform: the slot (epoch ms) at which the
   * call may be made, `now` when there is room now; undefined when the platform counts no request of
   * this action. One short transaction: the scope rows are locked (in a fixed order) and read by an
   * upsert, and written with the new booking.
   */
  async book(platform: string, credentials: IntegrationCredentials, action: StatusPushAction, now: number = Date.now()): Promise<number | undefined> {
    const scopes = budgetScopesOf(this.budgets.get(platform), action);
    if (scopes.length === 0) return undefined;
    const fingerprint = this.fingerprints.of(credentials);
    const keys = scopes.map(({ scope }) => `${platform}:${scope.name}:${credentials.integrationId}:${fingerprint}`);
    return this.dataSource.transaction(async (manager) => {
      const rows: Array<{ scope: string; calls: string[] }> = await manager.query(
        `INSERT INTO platform_call_budgets (scope) SELECT unnest($1::text[]) AS scope ORDER BY scope
         ON CONFLICT (scope) DO UPDATE SET updated_at = now() RETURNING scope, calls`,
        [keys],
      );
      const logged = new Map(rows.map((row) => [row.scope, row.calls.map(Number)]));
      const booking = bookCallBudget(
        scopes.map(({ scope, count }, index) => ({ limit: scope.limit, windowMs: scope.windowMs, calls: logged.get(keys[index]) ?? [], count })),
        now,
      );
      await manager.query(
        `UPDATE platform_call_budgets b SET calls = ARRAY(SELECT json_array_elements_text(v.value)::bigint), updated_at = now()
           FROM json_each($1::json) v WHERE b.scope = v.key`,
        [JSON.stringify(Object.fromEntries(keys.map((key, index) => [key, booking.calls[index]])))],
      );
      return booking.at;
    });
  }
}
