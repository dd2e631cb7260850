import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { constantTimeEqual, hashCredential } from '@courier/crypto';
import type { AuthFailureRefusal } from './admin-token.guard';
import { ProblemException } from './problem.exception';

export const API_KEY_HEADER = 'x-api-key';
export const API_SECRET_HEADER = 'x-api-secret';
/** Longer than any key or secret the suite issues by far; anything longer is refused without hashing. */
export const MAX_CREDENTIAL_LENGTH = 512;
/** Compared against when no account has the key, so a wrong key costs what a wrong secret does. */
const ABSENT_SECRET_HASH = hashCredential('no account has this key');

/** The port of ApiCredentialsGuard: the app's own repository, providing the account(s) of a key. */
export const ACCOUNT_KEY_LOOKUP = Symbol('ACCOUNT_KEY_LOOKUP');
/** Where ApiCredentialsGuard sends a failure: libs/rate-limit's AuthFailures (RateLimitModule provides it with `authFailures`). */
export const AUTH_FAILURE_REFUSAL = Symbol('AUTH_FAILURE_REFUSAL');

/** What the guard reads of an account: the hash of its API secret and whether it is active. */
export interface CredentialAccount {
  apiSecretHash: string;
  status: string;
}

export interface AccountKeyLookup<A extends CredentialAccount = CredentialAccount> {
  /** The account whose API key has this SHA-256 hash (a read model may hold several: an array). */
  findByApiKeyHash(apiKeyHash: string): Promise<A | readonly A[] | null | undefined>;
}

/** A request after ApiCredentialsGuard: its account. */
export interface AccountRequest<A = CredentialAccount> extends Request {
  account?: A;
}

function credential(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH ? value : undefined;
}

/**
 * X-API-Key and X-API-Secret, both required, of an active account, which becomes the request's
 * account (`@CurrentAccount()`). Every failure is the same 401, so it tells nothing about which part
 * was wrong; failures go through AuthFailures (401, or 429 once the address or key failed too often).
 * To use it in an app: `RateLimitModule.forRoot({ ..., authFailures: { keyIdHeaders: ['x-api-key'] } })`,
 * then, in the module of the guarded controllers, `providers: [ApiCredentialsGuard, { provide:
 * ACCOUNT_KEY_LOOKUP, useExisting: <the app's accounts repository> }]` and
 * `@UseGuards(ApiCredentialsGuard)` on the controller. (intake-api keeps its own guard: it also
 * takes Basic credentials with an optional secret, and answers with WWW-Authenticate, unthrottled.)
 */
@Injectable()
export class ApiCredentialsGuard implements CanActivate {
  constructor(
    @Inject(ACCOUNT_KEY_LOOKUP) private readonly accounts: AccountKeyLookup,
    @Inject(AUTH_FAILURE_REFUSAL) private readonly authFailures: AuthFailureRefusal,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccountRequest>();
    const apiKey = credential(request, API_KEY_HEADER);
    const apiSecret = credential(request, API_SECRET_HEADER);
    const account = apiKey && apiSecret ? await this.authenticate(apiKey, apiSecret) : undefined;
    if (!account) {
      return this.authFailures.refuse(request, new ProblemException(401, ErrorCode.AuthenticationFailed, 'X-API-Key and X-API-Secret must both be sent and be valid for an active account.'));
    }
    request.account = account;
    return true;
  }

  /** The active account whose key pair this is; the secret is compared in constant time, also when no account has the key. */
  private async authenticate(apiKey: string, apiSecret: string): Promise<CredentialAccount | undefined> {
    const found = await this.accounts.findByApiKeyHash(hashCredential(apiKey));
    const candidates: readonly CredentialAccount[] = Array.isArray(found) ? found : found ? [found as CredentialAccount] : [];
    const presented = hashCredential(apiSecret);
    let match: CredentialAccount | undefined;
    for (const account of candidates) {
      if (constantTimeEqual(account.apiSecretHash, presented) && account.status === 'active') match = account;
    }
    if (candidates.length === 0) constantTimeEqual(ABSENT_SECRET_HASH, presented);
    return match;
  }
}

/** The authenticated account of the request (after ApiCredentialsGuard); the parameter's type is the app's account. */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): CredentialAccount => {
  const account = context.switchToHttp().getRequest<AccountRequest>().account;
  if (!account) throw new ProblemException(401, ErrorCode.AuthenticationFailed, 'Not authenticated.');
  return account;
});
