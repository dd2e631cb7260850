import { integrationCheckRefusal } from './integration-check.limits';

describe('integrationCheckRefusal', () => {
  const limits = { perIntegrationPerMinute: 3, perAccountPerHour: 30 };

  it('lets a check through up to each limit, and refuses past the integration\'s first', () => {
    expect(integrationCheckRefusal({ integration: 3, account: 30 }, limits)).toBeUndefined();
    expect(integrationCheckRefusal({ integration: 4 }, limits)).toBe('integration');
    expect(integrationCheckRefusal({ integration: 4, account: 31 }, limits)).toBe('integration');
    expect(integrationCheckRefusal({ integration: 1, account: 31 }, limits)).toBe('account');
  });

  it('lets a check through when the store could not count it (fail open)', () => {
    expect(integrationCheckRefusal({}, limits)).toBeUndefined();
    expect(integrationCheckRefusal({ integration: undefined, account: undefined }, limits)).toBeUndefined();
  });
});
