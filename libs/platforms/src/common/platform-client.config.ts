import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { RequiredInProduction, ToNumber } from '@courier/config';
import { PLATFORM_A_ACCEPT_WARNING_MS, PLATFORM_A_ACCEPT_WINDOW_MS } from '../getir/getir.assumptions';
import { PLATFORM_B_ACCEPT_WARNING_MS, PLATFORM_B_ACCEPT_WINDOW_MS } from '../yemeksepeti/yemeksepeti.assumptions';
import { PLATFORM_C_ACCEPT_WARNING_MS, PLATFORM_C_ACCEPT_WINDOW_MS } from '../trendyol-go/trendyol-go.assumptions';
import { PLATFORM_D_ACCEPT_WARNING_MS, PLATFORM_D_ACCEPT_WINDOW_MS } from '../migros-yemek/migros-yemek.assumptions';

const BASE_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

/**
 * How the adapters reach the platforms (every app that calls a platform validates it at start).
 * Defaults are the platforms' production hosts from platforms.md; tests and the one-machine mode
 * point them at the simulators.
 */
export class PlatformClientConfig {
  /** Getir's food integration API (platforms.md: production gateway). */
  @Matches(BASE_URL, { message: 'PLATFORM_A_BASE_URL must be an http(s) URL without query' })
  PLATFORM_A_BASE_URL: string = 'https://food-external-api-gateway.getirapi.com';

  /** Delivery Hero's POS integration middleware (platforms.md: the TR region's host). */
  @Matches(BASE_URL, { message: 'PLATFORM_B_BASE_URL must be an http(s) URL without query' })
  PLATFORM_B_BASE_URL: string = 'https://integration-middleware-tr.me.restaurant-partners.com';

  /** Paths start with /integrator/ (platforms.md: production https://api.tgoapis.com/integrator/). */
  @Matches(BASE_URL, { message: 'PLATFORM_C_BASE_URL must be an http(s) URL without query' })
  PLATFORM_C_BASE_URL: string = 'https://api.tgoapis.com';

  /** Migros Yemek (platforms.md: production https://gourmet.migrosonline.com, test https://test.gourmet.migrosonline.com). */
  @Matches(BASE_URL, { message: 'PLATFORM_D_BASE_URL must be an http(s) URL without query' })
  PLATFORM_D_BASE_URL: string = 'https://gourmet.migrosonline.com';

  /**
   * The key PLATFORM_D's POST bodies are encrypted with: Migros gives the integrator one secret key
   * (platform-d.assumptions.ts). Unset: each integration's apiKey, as both known clients fall back to.
   */
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'PLATFORM_D_SECRET_KEY must be at least 8 characters' })
  @MaxLength(1024)
  PLATFORM_D_SECRET_KEY?: string;

  /**
   * The mode PLATFORM_D's bodies are encrypted in when the integration names none (its optional
   * `encryptionMode`): ECB, as three of the four known Migros clients do, or CBC with a zero IV (the
   * fourth). Inbound `{ value }` bodies are read in either (platform-d.assumptions.ts).
   */
  @IsIn(['ECB', 'CBC'], { message: 'PLATFORM_D_ENCRYPTION_MODE must be ECB or CBC' })
  PLATFORM_D_ENCRYPTION_MODE: 'ECB' | 'CBC' = 'ECB';

  /** The integrator-wide app key of PLATFORM_A's login (with each restaurant's secretKey). */
  @RequiredInProduction()
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

  /**
   * PLATFORM_A refuses a handover while its courier is not at the restaurant (codes 14, 15, 71): a
   * "not yet", tried again this often ...
   */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_A_COURIER_RETRY_INTERVAL_MS must be an integer' })
  @Min(10)
  PLATFORM_A_COURIER_RETRY_INTERVAL_MS: number = 30_000;

  /** ... for this long after the first attempt, then the update ends failed with Getir's reason. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_A_COURIER_RETRY_WINDOW_MS must be an integer' })
  @Min(0)
  PLATFORM_A_COURIER_RETRY_WINDOW_MS: number = 1_800_000;

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
  /**
   * PLATFORM_A's accept-by window: Getir closes a restaurant that leaves an order unanswered 5 minutes
   * (platform-a.assumptions.ts). Every PLATFORM_*_ACCEPT_* default and its source is in that platform's
   * assumptions file; tests set tiny ones.
   */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_A_ACCEPT_WINDOW_MS must be an integer' })
  @Min(1)
  PLATFORM_A_ACCEPT_WINDOW_MS: number = PLATFORM_A_ACCEPT_WINDOW_MS;

  /** Warn (order.acceptance_due, platform_orders_expiring) this long before a PLATFORM_A order's accept-by time: at 30 s, when Getir would phone the restaurant. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_A_ACCEPT_WARNING_MS must be an integer' })
  @Min(0)
  PLATFORM_A_ACCEPT_WARNING_MS: number = PLATFORM_A_ACCEPT_WARNING_MS;

  /** PLATFORM_B states its deadline (`expiryDate`); this window is for an order that comes without one. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_B_ACCEPT_WINDOW_MS must be an integer' })
  @Min(1)
  PLATFORM_B_ACCEPT_WINDOW_MS: number = PLATFORM_B_ACCEPT_WINDOW_MS;

  /** Warn this long before a PLATFORM_B order's accept-by time (its expiryDate). */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_B_ACCEPT_WARNING_MS must be an integer' })
  @Min(0)
  PLATFORM_B_ACCEPT_WARNING_MS: number = PLATFORM_B_ACCEPT_WARNING_MS;

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

  /** PLATFORM_D's accept-by window, from receipt (assumed: no source gives Migros' rule). */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_D_ACCEPT_WINDOW_MS must be an integer' })
  @Min(1)
  PLATFORM_D_ACCEPT_WINDOW_MS: number = PLATFORM_D_ACCEPT_WINDOW_MS;

  /** Warn this long before a PLATFORM_D order's accept-by time. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_D_ACCEPT_WARNING_MS must be an integer' })
  @Min(0)
  PLATFORM_D_ACCEPT_WARNING_MS: number = PLATFORM_D_ACCEPT_WARNING_MS;
}
