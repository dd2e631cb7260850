import { ExecutionContext } from '@nestjs/common';
import { ProblemException } from '@courier/http';
import type { AuthFailures } from '@courier/rate-limit';
import { IntegrationsConfig } from '../app/integrations-api.config';
import { AdminTokenGuard } from './admin-token.guard';

/** Throws the guard's own refusal, as AuthFailures does under its limits. */
const authFailures = { refuse: (_request: unknown, unauthorized: ProblemException) => Promise.reject(unauthorized) } as unknown as AuthFailures;

const context = (headers: Record<string, unknown>) => ({ switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as ExecutionContext;

describe('AdminTokenGuard', () => {
  const guard = new AdminTokenGuard({ ADMIN_TOKEN: 'the-admin-token-0001' } as IntegrationsConfig, authFailures);

  it('lets the configured token through', async () => {
    await expect(guard.canActivate(context({ 'x-admin-token': 'the-admin-token-0001' }))).resolves.toBe(true);
  });

  it.each([{}, { 'x-admin-token': '' }, { 'x-admin-token': 'the-admin-token-000' }, { 'x-admin-token': 'the-admin-token-00011' }, { 'x-admin-token': ['the-admin-token-0001'] }])(
    'refuses %p with 401',
    async (headers) => {
      await expect(guard.canActivate(context(headers))).rejects.toThrow(ProblemException);
    },
  );

  it('refuses everything when no token is configured', async () => {
    const off = new AdminTokenGuard({} as IntegrationsConfig, authFailures);
    await expect(off.canActivate(context({ 'x-admin-token': 'anything' }))).rejects.toThrow(
      expect.objectContaining({ code: 'AUTHENTICATION_FAILED', detail: 'The admin API is off: ADMIN_TOKEN is not configured.' }),
    );
  });
});
