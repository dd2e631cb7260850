import { IsInt, Min } from 'class-validator';
import { ToNumber } from '@courier/config';

/** How status-dispatcher polls PLATFORM_C's packages, validated at start. */
export class TrendyolGoInboundConfig {
  /** How often each active PLATFORM_C integration's packages are polled. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_C_POLL_INTERVAL_MS must be an integer' })
  @Min(100)
  PLATFORM_C_POLL_INTERVAL_MS: number = 30_000;

  /** How far back the first poll of an integration looks. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_C_POLL_LOOKBACK_MS must be an integer' })
  @Min(0)
  PLATFORM_C_POLL_LOOKBACK_MS: number = 3_600_000;
}
