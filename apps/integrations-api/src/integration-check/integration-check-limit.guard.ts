import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RATE_LIMIT_HOUR_MS, RATE_LIMIT_WINDOW_MS, RateLimiter, rateLimitExceeded, secondsLeftInWindow } from '@courier/rate-limit';
import { AccountRequest } from '@courier/http';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { IntegrationsConfig } from '../app/integrations-api.config';
import { isUuid } from '../common/ids';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { integrationCheckRefusal, IntegrationCheckLimits } from './integration-check.limits';
import { IntegrationCheckMetrics, RATE_LIMITED } from './integration-check.metrics';

const PER_INTEGRATION = 'integration-check';
const PER_ACCOUNT = 'integration-check-account';

/**
 * Every credential check is a real platform login (where the platform has one, with the deployment's shared app
 * key): INTEGRATION_CHECK_LIMIT_PER_MINUTE per integration and INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR
 * per account, in the shared store (the limit holds across replicas), before the check service
 * runs. Past a limit: 429 RATE_LIMIT_EXCEEDED with Retry-After for the rest of that window. Only the
 * caller's own integrations are counted (runs after ApiCredentialsGuard): an unknown or another
 * account's id goes on to its 404 and uses up nobody's checks.
 */
@Injectable()
export class IntegrationCheckLimitGuard implements CanActivate {
  private readonly limits: IntegrationCheckLimits;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly integrations: IntegrationsRepository,
    private readonly metrics: IntegrationCheckMetrics,
    config: IntegrationsConfig,
  ) {
    this.limits = { perIntegrationPerMinute: config.INTEGRATION_CHECK_LIMIT_PER_MINUTE, perAccountPerHour: config.INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccountRequest<RestaurantEntity> & { params: Record<string, string> }>();
    const restaurant = request.account;
    const id = request.params.id;
    if (!restaurant || !isUuid(id)) return true;
    const integration = await this.integrations.findOwn(restaurant.id, id);
    if (!integration) return true;

    const now = Date.now();
    const counts: { integration?: number; account?: number } = { integration: await this.limiter.hit(PER_INTEGRATION, integration.id, now) };
    if (!integrationCheckRefusal(counts, this.limits)) counts.account = await this.limiter.hit(PER_ACCOUNT, restaurant.id, now, RATE_LIMIT_HOUR_MS);
    const refusal = integrationCheckRefusal(counts, this.limits);
    if (!refusal) return true;
    this.metrics.record(integration.platform, RATE_LIMITED);
    if (refusal === 'integration') {
      throw rateLimitExceeded(
        `More than ${this.limits.perIntegrationPerMinute} credential checks a minute for this integration; retry after the Retry-After seconds.`,
        { name: 'checks', quota: this.limits.perIntegrationPerMinute, windowSeconds: RATE_LIMIT_WINDOW_MS / 1000 },
        secondsLeftInWindow(now),
      );
    }
    throw rateLimitExceeded(
      `More than ${this.limits.perAccountPerHour} credential checks an hour for this account; retry after the Retry-After seconds.`,
      { name: 'account-checks', quota: this.limits.perAccountPerHour, windowSeconds: RATE_LIMIT_HOUR_MS / 1000 },
      secondsLeftInWindow(now, RATE_LIMIT_HOUR_MS),
    );
  }
}
