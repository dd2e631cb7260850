import { ConfigurationError } from '@courier/config';
import { PlatformAdapters } from './platform-adapters';
import { PLATFORMS } from '../platforms';
import { platformClientConfig } from '../platforms';

describe('PlatformClientConfig', () => {
  it('defaults to the platforms\' production hosts', () => {
    const config = platformClientConfig({});
    expect(config).toMatchObject({
      PLATFORM_A_BASE_URL: 'https://food-external-api-gateway.getirapi.com',
      PLATFORM_B_BASE_URL: 'https://integration-middleware-tr.me.restaurant-partners.com',
      PLATFORM_C_BASE_URL: 'https://api.tgoapis.com',
      PLATFORM_D_BASE_URL: 'https://gourmet.migrosonline.com',
      PLATFORM_HTTP_TIMEOUT_MS: 10_000,
      PLATFORM_B_ACK_RETRY_INTERVAL_MS: 10_000,
      PLATFORM_B_ACK_RETRY_WINDOW_MS: 300_000,
    });
    expect(config.PLATFORM_D_SECRET_KEY).toBeUndefined();
    expect(config.PLATFORM_D_ENCRYPTION_MODE).toBe('ECB');
    expect(platformClientConfig({ PLATFORM_D_ENCRYPTION_MODE: 'CBC' }).PLATFORM_D_ENCRYPTION_MODE).toBe('CBC');
    expect(() => platformClientConfig({ PLATFORM_D_ENCRYPTION_MODE: 'GCM' })).toThrow(/PLATFORM_D_ENCRYPTION_MODE must be ECB or CBC/);
    expect(PlatformAdapters.fromEnv({}, { platforms: PLATFORMS }).codes()).toEqual(['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D']);
  });

  it('names bad variables and never echoes the app key', () => {
    let problems: string[] = [];
    try {
      platformClientConfig({ PLATFORM_A_BASE_URL: 'ftp://x', PLATFORM_D_BASE_URL: 'http://host/path?query', PLATFORM_HTTP_TIMEOUT_MS: 'soon', PLATFORM_A_APP_SECRET_KEY: 'short', PLATFORM_D_SECRET_KEY: 'tiny' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      problems = (error as ConfigurationError).problems;
    }
    expect(problems.join('\n')).toMatch(/PLATFORM_A_BASE_URL/);
    expect(problems.join('\n')).toMatch(/PLATFORM_D_BASE_URL/);
    expect(problems.join('\n')).toMatch(/PLATFORM_HTTP_TIMEOUT_MS/);
    expect(problems.join('\n')).toMatch(/PLATFORM_A_APP_SECRET_KEY must be at least 8/);
    expect(problems.join('\n')).toMatch(/PLATFORM_D_SECRET_KEY must be at least 8/);
    expect(problems.join('\n')).not.toContain('short');
    expect(problems.join('\n')).not.toContain('tiny');
  });

  it('holds PLATFORM_C_INTEGRATOR_NAME to at most 30 letters or digits (User-Agent and x-agentname) and PLATFORM_C_EXECUTOR_USER to a header-safe value', () => {
    expect(platformClientConfig({})).toMatchObject({ PLATFORM_C_INTEGRATOR_NAME: 'CourierIntegrationSuite', PLATFORM_C_EXECUTOR_USER: 'integration@courier-suite.invalid' });
    expect(platformClientConfig({ PLATFORM_C_INTEGRATOR_NAME: 'A'.repeat(30), PLATFORM_C_EXECUTOR_USER: 'ops@restaurant.example' })).toMatchObject({ PLATFORM_C_INTEGRATOR_NAME: 'A'.repeat(30) });
    for (const name of ['A'.repeat(31), 'Courier Suite', 'Courier-Suite', 'KuryeŞirketi', '']) {
      expect(() => platformClientConfig({ PLATFORM_C_INTEGRATOR_NAME: name })).toThrow(/PLATFORM_C_INTEGRATOR_NAME must be 1-30 letters or digits/);
    }
    for (const user of ['ops @restaurant', 'işlem@restoran.example']) {
      expect(() => platformClientConfig({ PLATFORM_C_EXECUTOR_USER: user })).toThrow(/PLATFORM_C_EXECUTOR_USER/);
    }
  });
});
