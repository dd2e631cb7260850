import { ExecutionContext } from '@nestjs/common';
import { ProblemException } from '@courier/http';
import { IntegrationsConfig } from '../app/integrations-api.config';
import { AdminTokenGuard } from './admin-token.guard';

const context = (headers: Record<string, unknown>) => ({ switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as ExecutionContext;

describe('AdminTokenGuard', () => {
  const guard = new AdminTokenGuard({ ADMIN_TOKEN: 'the-admin-token-0001' } as IntegrationsConfig);

  it('lets the configured token through', () => {
    expect(guard.canActivate(context({ 'x-admin-token': 'the-admin-token-0001' }))).toBe(true);
  });

  it.each([{}, { 'x-admin-token': '' }, { 'x-admin-token': 'the-admin-token-000' }, { 'x-admin-token': 'the-admin-token-00011' }, { 'x-admin-token': ['the-admin-token-0001'] }])(
    'refuses %p with 401',
    (headers) => {
      expect(() => guard.canActivate(context(headers))).toThrow(ProblemException);
    },
  );

  it('refuses everything when no token is configured', () => {
    const off = new AdminTokenGuard({} as IntegrationsConfig);
    expect(() => off.canActivate(context({ 'x-admin-token': 'anything' }))).toThrow(
      expect.objectContaining({ code: 'AUTHENTICATION_FAILED', detail: 'The admin API is off: ADMIN_TOKEN is not configured.' }),
    );
  });
});
