import { ConfigurationError, validateConfig } from '@courier/config';
import { GetirInboundConfig } from './getir.inbound.config';

function problems(env: Record<string, string>): string[] {
  try {
    validateConfig(GetirInboundConfig, env);
    return [];
  } catch (error) {
    return (error as ConfigurationError).problems;
  }
}

describe('GetirInboundConfig', () => {
  it('has the documented defaults', () => {
    const config = validateConfig(GetirInboundConfig, {});
    expect(config.PLATFORM_A_POLL_INTERVAL_MS).toBe(60_000);
    expect(config.PLATFORM_A_WEBHOOK_API_KEY).toBeUndefined();
  });

  it('names bad variables', () => {
    expect(problems({ PLATFORM_A_POLL_INTERVAL_MS: '10' }).join()).toMatch(/PLATFORM_A_POLL_INTERVAL_MS/);
    expect(problems({ PLATFORM_A_WEBHOOK_API_KEY: 'short' })).toEqual(['PLATFORM_A_WEBHOOK_API_KEY must be at least 16 characters']);
  });
});
