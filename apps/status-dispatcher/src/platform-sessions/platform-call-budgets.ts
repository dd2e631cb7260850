import { Injectable } from '@nestjs/common';
import { ConfigurationError } from '@courier/config';
import type { StatusPushAction } from '@courier/domain';
import { bookCallBudget, BudgetedCall, budgetScopesOf, CallBudget, IntegrationCredentials, PlatformAdapters } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { CredentialFingerprints } from './credential-fingerprints';
import { PlatformCallBudgetRepository } from './platform-call-budget.repository';

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
 * The platforms' call budgets, kept per integration and credentials in PostgreSQL
 * (PlatformCallBudgetRepository), shared by the replicas: a status call books its requests in every scope
 * of its platform before it is made (docs/platform-dispatch.md, "Platform sessions and call budgets").
 */
@Injectable()
export class PlatformCallBudgets {
  private readonly budgets = new Map<string, CallBudget>();

  constructor(
    private readonly repository: PlatformCallBudgetRepository,
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
        const most = Math.max(0, ...Object.values(scope.requests).map(Number));
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
   * call may be made, with the time the booking was decided at (the slot is that time when there is
   * room now); undefined when the platform counts no request of this action. The scope rows are
   * locked while bookCallBudget decides (one short transaction). The time is read under the lock:
   * read before it, a booking that waited for a concurrent one would find that one's call later than
   * its own "now" and take a slot a few ms ahead, sending the update to the task runner for nothing.
   */
  async book(platform: string, credentials: IntegrationCredentials, action: StatusPushAction | BudgetedCall, clock: () => number = Date.now): Promise<{ slot: number; bookedAt: number } | undefined> {
    return this.bookIn(platform, credentials, action, clock, false);
  }

  /**
   * Books room for one poll's request only if every scope has room now: a poll never waits for a
   * slot (it comes again at its next turn) and never pushes status calls back. True: booked; false:
   * no room now, nothing booked; undefined: no scope counts this call.
   */
  async bookNow(platform: string, credentials: IntegrationCredentials, call: BudgetedCall, clock: () => number = Date.now): Promise<boolean | undefined> {
    const booked = await this.bookIn(platform, credentials, call, clock, true);
    return booked === undefined ? undefined : booked.slot <= booked.bookedAt;
  }

  private async bookIn(platform: string, credentials: IntegrationCredentials, call: BudgetedCall, clock: () => number, onlyNow: boolean): Promise<{ slot: number; bookedAt: number } | undefined> {
    const scopes = budgetScopesOf(this.budgets.get(platform), call);
    if (scopes.length === 0) return undefined;
    const fingerprint = this.fingerprints.of(credentials);
    const keys = scopes.map(({ scope }) => `${platform}:${scope.name}:${credentials.integrationId}:${fingerprint}`);
    return this.repository.book(keys, (logged) => {
      const bookedAt = clock();
      const booking = bookCallBudget(
        scopes.map(({ scope, count }, index) => ({ limit: scope.limit, windowMs: scope.windowMs, calls: logged[index], count })),
        bookedAt,
      );
      // No room now for a call that does not wait: the logs stay as they were.
      if (onlyNow && booking.at > bookedAt) return { calls: logged, result: { slot: booking.at, bookedAt } };
      return { calls: booking.calls, result: { slot: booking.at, bookedAt } };
    });
  }
}
