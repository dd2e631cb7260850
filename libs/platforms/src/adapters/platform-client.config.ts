import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ToNumber } from '@courier/config';

const BASE_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

/**
 * How the adapters reach the platforms (every app that calls a platform validates it at start).
 * Defaults are the platforms' production hosts from platforms.md; tests and the one-machine mode
 * point them at the simulators. PLATFORM_D has no documented host, so it has no default.
 */
export class PlatformClientConfig {
  @Matches(BASE_URL, { message: 'PLATFORM_A_BASE_URL must be an http(s) URL without query' })
  PLATFORM_A_BASE_URL: string = 'https://food-external-api-gateway.getirapi.com';

  @Matches(BASE_URL, { message: 'PLATFORM_B_BASE_URL must be an http(s) URL without query' })
  PLATFORM_B_BASE_URL: string = 'https://integration-middleware-tr.me.restaurant-partners.com';

  /** Paths start with /integrator/ (platforms.md: production https://api.tgoapis.com/integrator/). */
  @Matches(BASE_URL, { message: 'PLATFORM_C_BASE_URL must be an http(s) URL without query' })
  PLATFORM_C_BASE_URL: string = 'https://api.tgoapis.com';

  /** No public documentation names a host: unset means PLATFORM_D calls fail as not configured. */
  @IsOptional()
  @Matches(BASE_URL, { message: 'PLATFORM_D_BASE_URL must be an http(s) URL without query' })
  PLATFORM_D_BASE_URL?: string;

  /** The integrator-wide app key of PLATFORM_A's login (with each restaurant's secretKey). */
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'PLATFORM_A_APP_SECRET_KEY must be at least 8 characters' })
  @MaxLength(1024)
  PLATFORM_A_APP_SECRET_KEY?: string;

  /**
   * PLATFORM_A's minimum interval between verify, prepare and deliver (Getir: 1 minute). A step the
   * platform refuses as too early (codes 62, 74) is tried again this long later.
   */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_A_STEP_INTERVAL_MS must be an integer' })
  @Min(0)
  PLATFORM_A_STEP_INTERVAL_MS: number = 60_000;

  /** Second half of PLATFORM_C's mandatory User-Agent `{supplierId} - {integratorName}`. */
  @IsString()
  @Matches(/^[\x20-\x7e]{1,100}$/, { message: 'PLATFORM_C_INTEGRATOR_NAME must be 1-100 printable ASCII characters' })
  PLATFORM_C_INTEGRATOR_NAME: string = 'CourierIntegrationSuite';

  /** Timeout of one platform call (connect to last byte). */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_HTTP_TIMEOUT_MS must be an integer' })
  @Min(100)
  @Max(120_000)
  PLATFORM_HTTP_TIMEOUT_MS: number = 10_000;

  /** A session token is renewed this long before it expires. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_SESSION_REFRESH_MARGIN_MS must be an integer' })
  @Min(0)
  PLATFORM_SESSION_REFRESH_MARGIN_MS: number = 300_000;

  /** PLATFORM_B answers 409 while the order awaits acknowledgement: retry this often ... */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_B_ACK_RETRY_INTERVAL_MS must be an integer' })
  @Min(10)
  PLATFORM_B_ACK_RETRY_INTERVAL_MS: number = 10_000;

  /** ... for this long after the first attempt (platforms.md: every 10 s for up to 5 minutes). */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_B_ACK_RETRY_WINDOW_MS must be an integer' })
  @Min(0)
  PLATFORM_B_ACK_RETRY_WINDOW_MS: number = 300_000;
}
