import { validateConfig } from '@courier/config';
import { TrendyolGoInboundConfig } from './trendyol-go.inbound.config';

describe('TrendyolGoInboundConfig', () => {
  it('has the documented defaults', () => {
    expect(validateConfig(TrendyolGoInboundConfig, {})).toMatchObject({ PLATFORM_C_POLL_INTERVAL_MS: 30_000, PLATFORM_C_POLL_LOOKBACK_MS: 3_600_000 });
  });
});
