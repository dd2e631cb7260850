import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuthFailures } from '@courier/rate-limit';
import { callbackUnauthorized, presentedKeyMatches } from '../common/platform-callback.auth';
import { GetirInboundConfig } from './getir.inbound.config';

/**
 * PLATFORM_A's webhooks carry the deployment-wide static `x-api-key` (PLATFORM_A_WEBHOOK_API_KEY),
 * checkable from the headers alone: a guard runs before the shared reader touches the body, so a
 * request without the key is refused (401 through AuthFailures) without its body being read into
 * memory or parsed.
 */
@Injectable()
export class PlatformAWebhookGuard implements CanActivate {
  constructor(
    private readonly config: GetirInboundConfig,
    private readonly authFailures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (presentedKeyMatches(request.headers['x-api-key'], this.config.PLATFORM_A_WEBHOOK_API_KEY)) return true;
    return this.authFailures.refuse(request, callbackUnauthorized('x-api-key'));
  }
}
