import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { YemeksepetiInboundConfig } from './yemeksepeti.inbound.config';
import { checkPlatformBPluginAuthorization } from './yemeksepeti.plugin-auth';

/**
 * Every PLATFORM_B plugin endpoint: `Authorization: Bearer <JWT>` signed by the middleware with
 * PLATFORM_B_PLUGIN_SECRET (HS256/384/512), claim `service: "middleware"`, `exp` when present, no
 * unknown `crit`. Refused with 401 (the middleware does not retry it) through AuthFailures, the
 * reason logged, never the token. A guard, so a refused call's body is never read or parsed.
 */
@Injectable()
export class PlatformBPluginGuard implements CanActivate {
  private readonly logger = new Logger('PlatformBPlugin');

  constructor(
    private readonly config: YemeksepetiInboundConfig,
    private readonly authFailures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const checked = await checkPlatformBPluginAuthorization(request.headers.authorization, this.config.PLATFORM_B_PLUGIN_SECRET);
    if (checked.ok) return true;
    this.logger.warn({ reason: checked.reason, method: request.method, path: request.path }, 'PLATFORM_B plugin call refused: its JWT does not verify');
    return this.authFailures.refuse(
      request,
      new ProblemException(401, ErrorCode.AuthenticationFailed, 'Authorization: Bearer <JWT> is missing, or not signed with the plugin secret for service "middleware", or expired, or names an unknown critical header.', undefined, {
        reason: 'UNAUTHORIZED',
        message: `the plugin JWT was refused (${checked.reason})`,
      }),
    );
  }
}
