import { CanActivate, ExecutionContext, Logger, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual } from '@courier/crypto';
import { ProblemException } from './problem.exception';

export const ADMIN_TOKEN_HEADER = 'x-admin-token';

/**
 * Where a credential guard sends a failed authentication: libs/rate-limit's AuthFailures, which
 * counts it and throws the guard's 401, or 429 past the failure limits.
 */
export interface AuthFailureRefusal {
  refuse(request: Request, unauthorized: ProblemException): Promise<never>;
}

/**
 * `/admin/v1/*` of every app: X-Admin-Token equal to the app's ADMIN_TOKEN (compared in constant
 * time), failures refused through `authFailures`. Without a configured token the admin API refuses
 * every request. Each app subclasses it with where its token comes from (its validated config).
 */
export abstract class AdminTokenGuardBase implements CanActivate, OnModuleInit {
  private readonly logger = new Logger('AdminTokenGuard');

  constructor(private readonly authFailures: AuthFailureRefusal) {}

  protected abstract adminToken(): string | undefined;

  onModuleInit(): void {
    if (!this.adminToken()) this.logger.warn('ADMIN_TOKEN is not set: the admin API refuses every request');
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const presented = request.headers[ADMIN_TOKEN_HEADER];
    const expected = this.adminToken();
    if (!expected || typeof presented !== 'string' || !constantTimeEqual(presented, expected)) {
      return this.authFailures.refuse(
        request,
        new ProblemException(401, ErrorCode.AuthenticationFailed, expected ? 'X-Admin-Token is missing or wrong.' : 'The admin API is off: ADMIN_TOKEN is not configured.'),
      );
    }
    return true;
  }
}
