import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RATE_LIMIT_WINDOW_MS, RateLimiter, rateLimitExceeded, secondsLeftInWindow } from '@courier/rate-limit';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import type { WebhookAccount } from '../repositories/webhook-accounts.model';

/**
 * A redelivery makes an outbound request at once: WEBHOOK_REDELIVER_LIMIT_PER_MINUTE per account,
 * counted in the shared store (after ApiCredentialsGuard, which sets the account). Past it, 429 with
 * Retry-After for the rest of the minute.
 */
@Injectable()
export class RedeliverRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: WebhookSenderConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const account = context.switchToHttp().getRequest<{ account?: WebhookAccount }>().account;
    if (!account) return true; // ApiCredentialsGuard runs first and refuses unauthenticated calls
    const now = Date.now();
    const count = await this.limiter.hit('redeliver', account.restaurantId, now);
    const limit = this.config.WEBHOOK_REDELIVER_LIMIT_PER_MINUTE;
    if (count !== undefined && count > limit) {
      throw rateLimitExceeded(
        `More than ${limit} redeliveries a minute for this account; retry after the Retry-After seconds.`,
        { name: 'redeliveries', quota: limit, windowSeconds: RATE_LIMIT_WINDOW_MS / 1000 },
        secondsLeftInWindow(now),
      );
    }
    return true;
  }
}
