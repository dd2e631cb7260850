import { CanActivate, ExecutionContext, Logger, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual } from '@courier/crypto';
import { ProblemException } from './problem.exception';

export const ADMIN_TOKEN_HEADER = 'x-admin-token';

/**
 * `/admin/v1/*` of every app: X-Admin-Token equal to the app's ADMIN_TOKEN (compared in constant
 * time). Without a configured token the admin API refuses every request. Each app subclasses it with
 * where its token comes from (its validated config).
 */
export abstract class AdminTokenGuardBase implements CanActivate, OnModuleInit {
  private readonly logger = new Logger('AdminTokenGuard');

  protected abstract adminToken(): string | undefined;

  onModuleInit(): void {
    if (!this.adminToken()) this.logger.warn('ADMIN_TOKEN is not set: the admin API refuses every request');
  }

  canActivate(context: ExecutionContext): boolean {
    const presented = context.switchToHttp().getRequest<Request>().headers[ADMIN_TOKEN_HEADER];
    const expected = this.adminToken();
    if (!expected || typeof presented !== 'string' || !constantTimeEqual(presented, expected)) {
      throw new ProblemException(
        401,
        ErrorCode.AuthenticationFailed,
        expected ? 'X-Admin-Token is missing or wrong.' : 'The admin API is off: ADMIN_TOKEN is not configured.',
      );
    }
    return true;
  }
}
