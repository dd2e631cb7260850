import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual, hashCredential } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import { AccountsService } from './accounts.service';
import { IntakeAccount } from './intake-account';
import { parseIntakeCredentials } from './intake-credentials';

/** The caller, as the guards leave it on the request. */
export interface IntakeCaller {
  account: IntakeAccount;
  /** SHA-256 of the API key used: the rate limit's key (the key itself is never kept). */
  apiKeyHash: string;
}

export interface IntakeRequest extends Request {
  intakeCaller?: IntakeCaller;
}

/**
 * Step 1 of the check order: X-API-Key or Basic, against intake's read model. Every failure —
 * no or malformed credentials, unknown key, wrong secret, disabled account — is the same 401,
 * so an answer tells nothing about which part was wrong.
 */
@Injectable()
export class IntakeAuthGuard implements CanActivate {
  constructor(private readonly accounts: AccountsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<IntakeRequest>();
    const credentials = parseIntakeCredentials(request.headers);
    if (credentials) {
      const apiKeyHash = hashCredential(credentials.apiKey);
      const account = await this.accounts.findByKeyHash(apiKeyHash);
      const secretMatches = credentials.apiSecret === undefined || (account !== null && constantTimeEqual(hashCredential(credentials.apiSecret), account.apiSecretHash));
      if (account && account.status === 'active' && secretMatches) {
        request.intakeCaller = { account, apiKeyHash };
        return true;
      }
    }
    throw new ProblemException(
      401,
      ErrorCode.AuthenticationFailed,
      'Send a valid API key as X-API-Key, or as Authorization: Basic base64(apiKey:apiSecret) (the secret may be empty).',
      undefined,
      {},
      { 'WWW-Authenticate': 'Basic realm="order-intake", charset="UTF-8"' },
    );
  }
}

/** The authenticated caller of the request (after IntakeAuthGuard). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): IntakeCaller => {
  const caller = context.switchToHttp().getRequest<IntakeRequest>().intakeCaller;
  if (!caller) throw new ProblemException(401, ErrorCode.AuthenticationFailed, 'Not authenticated.');
  return caller;
});
