import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { WebhookAccount } from '../repositories/webhook-accounts.repository';
import { WebhookAccountsService } from './webhook-accounts.service';

const MAX_CREDENTIAL_LENGTH = 512;

interface AuthenticatedRequest extends Request {
  account?: WebhookAccount;
}

function credential(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH ? value : undefined;
}

/**
 * `/api/v1/my/webhooks/deliveries`: X-API-Key and X-API-Secret of an active account (checked against
 * the read model's hashes; the secret in constant time). Every failure is the same 401, through
 * AuthFailures (429 once the address or key failed too often).
 */
@Injectable()
export class ApiCredentialsGuard implements CanActivate {
  constructor(
    private readonly accounts: WebhookAccountsService,
    private readonly authFailures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const apiKey = credential(request, 'x-api-key');
    const apiSecret = credential(request, 'x-api-secret');
    const account = apiKey && apiSecret ? await this.accounts.authenticate(apiKey, apiSecret) : undefined;
    if (!account) return this.authFailures.refuse(request, new ProblemException(401, ErrorCode.AuthenticationFailed, 'X-API-Key and X-API-Secret must both be sent and be valid for an active account.'));
    request.account = account;
    return true;
  }
}

/** The authenticated account of the request (after ApiCredentialsGuard). */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): WebhookAccount => {
  const account = context.switchToHttp().getRequest<AuthenticatedRequest>().account;
  if (!account) throw new ProblemException(401, ErrorCode.AuthenticationFailed, 'Not authenticated.');
  return account;
});
