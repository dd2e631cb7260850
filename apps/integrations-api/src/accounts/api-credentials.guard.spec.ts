import { ExecutionContext } from '@nestjs/common';
import { ProblemException } from '@courier/http';
import type { AuthFailures } from '@courier/rate-limit';
import { AccountsService } from './accounts.service';
import { ApiCredentialsGuard, AuthenticatedRequest } from './api-credentials.guard';
import { RestaurantEntity } from './restaurant.entity';

/** Throws the guard's own refusal, as AuthFailures does under its limits. */
const authFailures = { refuse: (_request: unknown, unauthorized: ProblemException) => Promise.reject(unauthorized) } as unknown as AuthFailures;

describe('ApiCredentialsGuard', () => {
  const restaurant = { id: 'rest_abcdefghijklmnopqrstuvwx', status: 'active' } as RestaurantEntity;
  const authenticate = jest.fn(async (key: string, secret: string) => (key === 'good-key' && secret === 'good-secret' ? restaurant : undefined));
  const guard = new ApiCredentialsGuard({ authenticate } as unknown as AccountsService, authFailures);
  const context = (headers: Record<string, unknown>) => {
    const request = { headers } as unknown as AuthenticatedRequest;
    return { request, context: { switchToHttp: () => ({ getRequest: () => request }) } as ExecutionContext };
  };

  beforeEach(() => authenticate.mockClear());

  it('puts the account of a valid pair on the request', async () => {
    const { request, context: ctx } = context({ 'x-api-key': 'good-key', 'x-api-secret': 'good-secret' });
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(request.restaurant).toBe(restaurant);
  });

  it.each([
    [{}],
    [{ 'x-api-key': 'good-key' }],
    [{ 'x-api-secret': 'good-secret' }],
    [{ 'x-api-key': 'good-key', 'x-api-secret': 'bad' }],
    [{ 'x-api-key': ['good-key'], 'x-api-secret': 'good-secret' }],
    [{ 'x-api-key': '', 'x-api-secret': '' }],
  ])('answers 401 AUTHENTICATION_FAILED for %p', async (headers) => {
    const error = await guard.canActivate(context(headers).context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemException);
    expect((error as ProblemException).getStatus()).toBe(401);
    expect((error as ProblemException).code).toBe('AUTHENTICATION_FAILED');
  });

  it('does not even look up an over-long key', async () => {
    await expect(guard.canActivate(context({ 'x-api-key': 'k'.repeat(513), 'x-api-secret': 'good-secret' }).context)).rejects.toBeInstanceOf(ProblemException);
    expect(authenticate).not.toHaveBeenCalled();
  });
});
