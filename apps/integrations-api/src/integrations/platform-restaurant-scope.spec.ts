import { holdsPlatformRestaurant, PlatformRegistry } from '@courier/platforms';
import { ACCOUNT_SCOPED_PLATFORMS } from '../migrations/1764300600000-OnePlatformRestaurantOneIntegration';

describe('the platform restaurant index and the registry', () => {
  it('exempt the same platforms from the uniqueness across accounts (the index cannot ask the registry)', () => {
    const accountScoped = PlatformRegistry.fromEnv({})
      .list()
      .filter((platform) => !holdsPlatformRestaurant(platform))
      .map((platform) => platform.code);
    expect(accountScoped).toEqual([...ACCOUNT_SCOPED_PLATFORMS]);
  });
});
