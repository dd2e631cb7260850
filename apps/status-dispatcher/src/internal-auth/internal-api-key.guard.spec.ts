import { ExecutionContext } from '@nestjs/common';
import { ProblemException } from '@courier/http';
import type { AuthFailures } from '@courier/rate-limit';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { InternalApiKeyGuard, isInternalApiKey } from './internal-api-key.guard';

/** Throws the guard's own refusal, as AuthFailures does under its limits. */
const authFailures = { refuse: (_request: unknown, unauthorized: ProblemException) => Promise.reject(unauthorized) } as unknown as AuthFailures;

const OLD_KEY = 'old-internal-key-0123456789';
const NEW_KEY = 'new-internal-key-9876543210';

function contextWith(headers: Record<string, unknown>): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => ({ headers }) }) } as unknown as ExecutionContext;
}

describe('isInternalApiKey', () => {
  it('accepts every configured key (rotation) and nothing else', () => {
    expect(isInternalApiKey(OLD_KEY, [OLD_KEY, NEW_KEY])).toBe(true);
    expect(isInternalApiKey(NEW_KEY, [OLD_KEY, NEW_KEY])).toBe(true);
    expect(isInternalApiKey(`${OLD_KEY}x`, [OLD_KEY, NEW_KEY])).toBe(false);
    expect(isInternalApiKey(OLD_KEY.slice(0, -1), [OLD_KEY, NEW_KEY])).toBe(false);
    expect(isInternalApiKey(OLD_KEY.toUpperCase(), [OLD_KEY])).toBe(false);
  });

  it('refuses absent, empty, repeated and non-string values', () => {
    expect(isInternalApiKey(undefined, [OLD_KEY])).toBe(false);
    expect(isInternalApiKey('', [OLD_KEY])).toBe(false);
    expect(isInternalApiKey([OLD_KEY, OLD_KEY], [OLD_KEY])).toBe(false);
    expect(isInternalApiKey(OLD_KEY, [])).toBe(false);
  });
});

describe('InternalApiKeyGuard', () => {
  const guard = new InternalApiKeyGuard({ INTERNAL_API_KEYS: [OLD_KEY, NEW_KEY] } as DispatcherConfig, authFailures);

  it('lets a configured key through', async () => {
    await expect(guard.canActivate(contextWith({ 'x-internal-api-key': NEW_KEY }))).resolves.toBe(true);
  });

  it('answers 401 AUTHENTICATION_FAILED otherwise', async () => {
    for (const headers of [{}, { 'x-internal-api-key': 'wrong-key-wrong-key-wrong' }, { 'x-api-key': OLD_KEY }]) {
      const thrown = await guard.canActivate(contextWith(headers)).catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(ProblemException);
      expect((thrown as ProblemException).getStatus()).toBe(401);
      expect((thrown as ProblemException).code).toBe('AUTHENTICATION_FAILED');
    }
  });
});
