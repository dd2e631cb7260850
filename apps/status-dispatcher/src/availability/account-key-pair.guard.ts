import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual, hashCredential } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';

const MAX_CREDENTIAL_LENGTH = 512;
// Compared against when no account has the presented key, so both paths do the same work.
const ABSENT_SECRET_HASH = hashCredential('no account has this key');

interface AuthenticatedRequest extends Request {
  restaurantId?: string;
}

function credential(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH ? value : undefined;
}

/**
 * `/api/v1/my/...` of status-dispatcher: X-API-Key and X-API-Secret of an active account, checked
 * against the hashes of the dispatcher's account read model (the secret in constant time), as the
 * other apps' credential guards do. Every failure is the same 401, through AuthFailures.
 */
@Injectable()
export class AccountKeyPairGuard implements CanActivate {
  constructor(
    private readonly accounts: AccountDirectoryRepository,
    private readonly authFailures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const apiKey = credential(request, 'x-api-key');
    const apiSecret = credential(request, 'x-api-secret');
    const restaurantId = apiKey && apiSecret ? await this.authenticate(apiKey, apiSecret) : undefined;
    if (!restaurantId) return this.authFailures.refuse(request, new ProblemException(401, ErrorCode.AuthenticationFailed, 'X-API-Key and X-API-Secret must both be sent and be valid for an active account.'));
    request.restaurantId = restaurantId;
    return true;
  }

  private async authenticate(apiKey: string, apiSecret: string): Promise<string | undefined> {
    const candidates = await this.accounts.accountsByApiKeyHash(hashCredential(apiKey));
    const presented = hashCredential(apiSecret);
    let match: string | undefined;
    for (const account of candidates) {
      if (constantTimeEqual(account.apiSecretHash ?? ABSENT_SECRET_HASH, presented) && account.status === 'active') match = account.restaurantId;
    }
    if (candidates.length === 0) constantTimeEqual(ABSENT_SECRET_HASH, presented);
    return match;
  }
}

/** The authenticated account's restaurantId (after AccountKeyPairGuard). */
export const CurrentRestaurantId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const restaurantId = context.switchToHttp().getRequest<AuthenticatedRequest>().restaurantId;
  if (!restaurantId) throw new ProblemException(401, ErrorCode.AuthenticationFailed, 'Not authenticated.');
  return restaurantId;
});
