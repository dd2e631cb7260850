import { CanActivate, ExecutionContext, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { IntegrationsConfig } from '../app/integrations-api.config';

export const ADMIN_TOKEN_HEADER = 'x-admin-token';

/** `/admin/v1/*`: X-Admin-Token equal to ADMIN_TOKEN (compared in constant time); failures go through AuthFailures. */
@Injectable()
export class AdminTokenGuard implements CanActivate, OnModuleInit {
  private readonly logger = new Logger('AdminTokenGuard');

  constructor(
    private readonly config: IntegrationsConfig,
    private readonly authFailures: AuthFailures,
  ) {}

  onModuleInit(): void {
    if (!this.config.ADMIN_TOKEN) this.logger.warn('ADMIN_TOKEN is not set: the admin API refuses every request');
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const presented = request.headers[ADMIN_TOKEN_HEADER];
    const expected = this.config.ADMIN_TOKEN;
    if (!expected || typeof presented !== 'string' || !constantTimeEqual(presented, expected)) {
      return this.authFailures.refuse(
        request,
        new ProblemException(401, ErrorCode.AuthenticationFailed, expected ? 'X-Admin-Token is missing or wrong.' : 'The admin API is off: ADMIN_TOKEN is not configured.'),
      );
    }
    return true;
  }
}
