import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { AccountsService } from './accounts.service';
import { RestaurantEntity } from './restaurant.entity';

export const API_KEY_HEADER = 'x-api-key';
export const API_SECRET_HEADER = 'x-api-secret';
const MAX_CREDENTIAL_LENGTH = 512;

export interface AuthenticatedRequest extends Request {
  restaurant?: RestaurantEntity;
}

function credential(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH ? value : undefined;
}

/**
 * `/api/v1/my/*`: X-API-Key and X-API-Secret, both required, of an active account, which becomes
 * "my" account of the request. Every failure is the same 401, so it tells nothing about which part
 * was wrong; failures go through AuthFailures (401, or 429 once the address or key failed too often).
 */
@Injectable()
export class ApiCredentialsGuard implements CanActivate {
  constructor(
    private readonly accounts: AccountsService,
    private readonly authFailures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const apiKey = credential(request, API_KEY_HEADER);
    const apiSecret = credential(request, API_SECRET_HEADER);
    const restaurant = apiKey && apiSecret ? await this.accounts.authenticate(apiKey, apiSecret) : undefined;
    if (!restaurant) {
      return this.authFailures.refuse(request, new ProblemException(401, ErrorCode.AuthenticationFailed, 'X-API-Key and X-API-Secret must both be sent and be valid for an active account.'));
    }
    request.restaurant = restaurant;
    return true;
  }
}

/** The authenticated account of the request (after ApiCredentialsGuard). */
export const CurrentRestaurant = createParamDecorator((_data: unknown, context: ExecutionContext): RestaurantEntity => {
  const restaurant = context.switchToHttp().getRequest<AuthenticatedRequest>().restaurant;
  if (!restaurant) throw new ProblemException(401, ErrorCode.AuthenticationFailed, 'Not authenticated.');
  return restaurant;
});
