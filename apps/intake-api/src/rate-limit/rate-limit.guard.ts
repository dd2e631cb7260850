import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateLimiter, rateLimitExceeded } from '@courier/rate-limit';
import { IntakeConfig } from '../app/intake-api.config';
import { IntakeRequest } from '../accounts/intake-auth.guard';

export type RateLimitScope = 'intake' | 'read';
const SCOPE_KEY = 'intake:rate-limit-scope';

/** Which counter a route uses: order intake and status reads have separate windows. */
export const RateLimitScope = (scope: RateLimitScope) => SetMetadata(SCOPE_KEY, scope);

/**
 * Step 2 of the check order (after IntakeAuthGuard): INTAKE_RATE_LIMIT_PER_MINUTE requests per
 * API key in a fixed minute, counted in the shared store (fail open when it is down: RateLimiter).
 * 429 with Retry-After: 60, as decisions.md fixes it.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: IntakeConfig,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<IntakeRequest>();
    const caller = request.intakeCaller;
    if (!caller) return true; // IntakeAuthGuard runs first and refuses unauthenticated calls
    const scope = this.reflector.get<RateLimitScope | undefined>(SCOPE_KEY, context.getHandler()) ?? 'intake';
    const count = await this.limiter.hit(scope, caller.apiKeyHash);
    if (count !== undefined && count > this.config.INTAKE_RATE_LIMIT_PER_MINUTE) {
      const policy = { name: scope === 'read' ? 'reads' : 'orders', quota: this.config.INTAKE_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };
      throw rateLimitExceeded(`More than ${this.config.INTAKE_RATE_LIMIT_PER_MINUTE} requests a minute for this API key; retry after 60 seconds.`, policy, 60);
    }
    return true;
  }
}
