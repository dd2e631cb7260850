import { ConfigurationError, validateConfig } from '@courier/config';
import { YemeksepetiInboundConfig } from './yemeksepeti.inbound.config';

describe('YemeksepetiInboundConfig', () => {
  it('has no plugin secret by default and names a short one', () => {
    expect(validateConfig(YemeksepetiInboundConfig, {}).PLATFORM_B_PLUGIN_SECRET).toBeUndefined();
    expect(() => validateConfig(YemeksepetiInboundConfig, { PLATFORM_B_PLUGIN_SECRET: 'short' })).toThrow(ConfigurationError);
    try {
      validateConfig(YemeksepetiInboundConfig, { PLATFORM_B_PLUGIN_SECRET: 'short' });
    } catch (error) {
      expect((error as ConfigurationError).problems).toEqual(['PLATFORM_B_PLUGIN_SECRET must be at least 16 characters']);
    }
  });
});
