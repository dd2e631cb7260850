import { ExecutionContext } from '@nestjs/common';
import { hashCredential } from '@courier/crypto';
import type { AuthFailureRefusal } from './admin-token.guard';
import { AccountKeyLookup, AccountRequest, ApiCredentialsGuard, CredentialAccount } from './api-credentials.guard';
import { ProblemException } from './problem.exception';

/** Throws the guard's own refusal, as AuthFailures does under its limits. */
const authFailures: AuthFailureRefusal = { refuse: (_request: unknown, unauthorized: ProblemException) => Promise.reject(unauthorized) };

describe('ApiCredentialsGuard', () => {
  const account = { id: 'rest_abcdefghijklmnopqrstuvwx', status: 'active', apiSecretHash: hashCredential('good-secret') };
  const disabled = { id: 'rest_disabled0000000000000000', status: 'disabled', apiSecretHash: hashCredential('good-secret') };
  /** The app's repository: one account per key hash (integrations-api) or a list of them (a read model). */
  const byHash = new Map<string, CredentialAccount | CredentialAccount[]>([
    [hashCredential('good-key'), account],
    [hashCredential('listed-key'), [disabled, { ...account, id: 'rest_listed00000000000000000' }]],
    [hashCredential('disabled-key'), disabled],
  ]);
  const findByApiKeyHash = jest.fn(async (hash: string) => byHash.get(hash) ?? null);
  const guard = new ApiCredentialsGuard({ findByApiKeyHash } as AccountKeyLookup, authFailures);
  const context = (headers: Record<string, unknown>) => {
    const request = { headers } as unknown as AccountRequest;
    return { request, context: { switchToHttp: () => ({ getRequest: () => request }) } as ExecutionContext };
  };

  beforeEach(() => findByApiKeyHash.mockClear());

  it('puts the account of a valid pair on the request', async () => {
    const { request, context: ctx } = context({ 'x-api-key': 'good-key', 'x-api-secret': 'good-secret' });
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(request.account).toBe(account);
  });

  it('takes the active account among several of one key hash', async () => {
    const { request, context: ctx } = context({ 'x-api-key': 'listed-key', 'x-api-secret': 'good-secret' });
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(request.account).toMatchObject({ id: 'rest_listed00000000000000000', status: 'active' });
  });

  it.each([
    [{}],
    [{ 'x-api-key': 'good-key' }],
    [{ 'x-api-secret': 'good-secret' }],
    [{ 'x-api-key': 'good-key', 'x-api-secret': 'bad' }],
    [{ 'x-api-key': 'unknown-key', 'x-api-secret': 'good-secret' }],
    [{ 'x-api-key': 'disabled-key', 'x-api-secret': 'good-secret' }],
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
    expect(findByApiKeyHash).not.toHaveBeenCalled();
  });
});
