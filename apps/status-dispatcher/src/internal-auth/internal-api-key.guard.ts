import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual } from '@courier/crypto';
import { ProblemException } from '@courier/http';
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

/** The internal endpoints (/internal/*): X-Internal-Api-Key equal to one of INTERNAL_API_KEYS. */
@Injectable()
export class InternalApiKeyGuard implements CanActivate {
  constructor(private readonly config: DispatcherConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const presented = context.switchToHttp().getRequest<Request>().headers[INTERNAL_API_KEY_HEADER.toLowerCase()];
    if (!isInternalApiKey(presented, this.config.INTERNAL_API_KEYS)) {
      throw new ProblemException(401, ErrorCode.AuthenticationFailed, `${INTERNAL_API_KEY_HEADER} is missing or wrong.`);
    }
    return true;
  }
}
