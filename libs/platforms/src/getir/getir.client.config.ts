import { IsInt, IsOptional, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';
import { RequiredInProduction, ToNumber } from '@courier/config';
import { PLATFORM_BASE_URL, type PlatformHttpConfig } from '../common/platform-client.config';
import { PLATFORM_A_ACCEPT_WARNING_MS, PLATFORM_A_ACCEPT_WINDOW_MS } from './getir.assumptions';

/** How the adapter reaches PLATFORM_A (Getir), validated at start by every app that calls it. Defaults are its production host from platforms.md; tests and the one-machine mode point it at the simulator. */
export class GetirClientConfig {
  /** Getir's food integration API (platforms.md: production gateway). */
  @Matches(PLATFORM_BASE_URL, { message: 'PLATFORM_A_BASE_URL must be an http(s) URL without query' })
  PLATFORM_A_BASE_URL: string = 'https://food-external-api-gateway.getirapi.com';

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

  /** PLATFORM_A's PREPARE waits this long after approval (guard 4), and each step this long after the previous one. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_A_PREPARE_HOLD_MS must be an integer' })
  @Min(0)
  PLATFORM_A_PREPARE_HOLD_MS: number = 60_000;

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
   * PLATFORM_A's accept-by window: Getir closes a restaurant that leaves an order unanswered 5 minutes
   * (getir.assumptions.ts). Every PLATFORM_*_ACCEPT_* default and its source is in that platform's
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
}

/** What its adapter reads: the shared client settings and its own. */
export type GetirClientSettings = PlatformHttpConfig & GetirClientConfig;
