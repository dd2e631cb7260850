import { IsInt, IsString, Matches, Min } from 'class-validator';
import { ToNumber } from '@courier/config';
import { PLATFORM_BASE_URL, type PlatformHttpConfig } from '../common/platform-client.config';
import { PLATFORM_C_ACCEPT_WARNING_MS, PLATFORM_C_ACCEPT_WINDOW_MS } from './trendyol-go.assumptions';

/** How the adapter reaches PLATFORM_C (Trendyol Go), validated at start by every app that calls it. Defaults are its production host from platforms.md; tests and the one-machine mode point it at the simulator. */
export class TrendyolGoClientConfig {
  /** Paths start with /integrator/ (platforms.md: production https://api.tgoapis.com/integrator/). */
  @Matches(PLATFORM_BASE_URL, { message: 'PLATFORM_C_BASE_URL must be an http(s) URL without query' })
  PLATFORM_C_BASE_URL: string = 'https://api.tgoapis.com';

  /**
   * Second half of PLATFORM_C's mandatory User-Agent `{supplierId} - {integratorName}`, and its
   * `x-agentname` (developers.trendyol.com/docs/2-authorization: alphanumeric, at most 30 characters).
   */
  @IsString()
  @Matches(/^[A-Za-z0-9]{1,30}$/, { message: 'PLATFORM_C_INTEGRATOR_NAME must be 1-30 letters or digits (the platform refuses other integrator names)' })
  PLATFORM_C_INTEGRATOR_NAME: string = 'CourierIntegrationSuite';

  /**
   * PLATFORM_C's `x-executor-user`: who performs the calls, an e-mail address in Trendyol Go's
   * documents. The default names no real mailbox (.invalid): set the integrator's address in production.
   */
  @IsString()
  @Matches(/^[\x21-\x7e]{1,254}$/, { message: 'PLATFORM_C_EXECUTOR_USER must be 1-254 printable ASCII characters without spaces (an e-mail address)' })
  PLATFORM_C_EXECUTOR_USER: string = 'integration@courier-suite.invalid';

  /** PLATFORM_C's accept-by window, from the package's creation (assumed: Trendyol cancels an unanswered package with reason 625 after an undocumented time). */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_C_ACCEPT_WINDOW_MS must be an integer' })
  @Min(1)
  PLATFORM_C_ACCEPT_WINDOW_MS: number = PLATFORM_C_ACCEPT_WINDOW_MS;

  /** Warn this long before a PLATFORM_C order's accept-by time. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_C_ACCEPT_WARNING_MS must be an integer' })
  @Min(0)
  PLATFORM_C_ACCEPT_WARNING_MS: number = PLATFORM_C_ACCEPT_WARNING_MS;
}

/** What its adapter reads: the shared client settings and its own. */
export type TrendyolGoClientSettings = PlatformHttpConfig & TrendyolGoClientConfig;
