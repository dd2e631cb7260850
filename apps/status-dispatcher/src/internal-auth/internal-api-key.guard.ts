import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { DispatcherConfig } from '../app/status-dispatcher.config';

export const INTERNAL_API_KEY_HEADER = 'X-Internal-Api-Key';

/**
 * Whether `presented` is one of `keys`. Every key is compared (constant time each, no early exit),
 * so the answer time does not tell which key, or how much of one, matched.
 */
export function isInternalApiKey(presented: unknown, keys: readonly string[]): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  let matched = false;
  for (const key of keys) matched = constantTimeEqual(presented, key) || matched;
  return matched;
}

/** The internal endpoints (/internal/*): X-Internal-Api-Key equal to one of INTERNAL_API_KEYS; failures go through AuthFailures. */
@Injectable()
export class InternalApiKeyGuard implements CanActivate {
  constructor(
    private readonly config: DispatcherConfig,
    private readonly authFailures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!isInternalApiKey(request.headers[INTERNAL_API_KEY_HEADER.toLowerCase()], this.config.INTERNAL_API_KEYS)) {
      return this.authFailures.refuse(request, new ProblemException(401, ErrorCode.AuthenticationFailed, `${INTERNAL_API_KEY_HEADER} is missing or wrong.`));
    }
    return true;
  }
}
