import { ConfigurationError } from '@courier/config';
import { PlatformAdapters } from '../common/platform-adapters';
import { platformClientConfig, PLATFORMS } from '../platforms';

function problems(env: Record<string, string>): string[] {
  try {
    platformClientConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigurationError).problems;
  }
}

describe('GetirClientConfig', () => {
  it('holds PREPARE 60 s after approval by default, and names a bad PLATFORM_A_PREPARE_HOLD_MS', () => {
    expect(platformClientConfig({})).toMatchObject({ PLATFORM_A_PREPARE_HOLD_MS: 60_000 });
    expect(problems({ PLATFORM_A_PREPARE_HOLD_MS: '-1' }).join()).toMatch(/PLATFORM_A_PREPARE_HOLD_MS/);
    expect(problems({ PLATFORM_A_PREPARE_HOLD_MS: 'a minute' })).toContain('PLATFORM_A_PREPARE_HOLD_MS must be an integer');
    expect(platformClientConfig({ PLATFORM_A_PREPARE_HOLD_MS: '1000' }).PLATFORM_A_PREPARE_HOLD_MS).toBe(1000);
  });

  it('gives the adapter\'s step spacing (and so the PREPARE hold) from PLATFORM_A_PREPARE_HOLD_MS', () => {
    const adapters = PlatformAdapters.fromEnv({ PLATFORM_A_PREPARE_HOLD_MS: '1500' }, { platforms: PLATFORMS });
    expect(adapters.get('PLATFORM_A')!.status.stepSpacing!()).toEqual({ actions: expect.arrayContaining(['PREPARE']), ms: 1500 });
    expect(adapters.codes().filter((code) => adapters.get(code)!.status.stepSpacing)).toEqual(['PLATFORM_A']);
  });
});
