import { IsInt, Matches, Min } from 'class-validator';
import { ToNumber } from '@courier/config';
import { PLATFORM_BASE_URL, type PlatformHttpConfig } from '../common/platform-client.config';
import { PLATFORM_B_ACCEPT_WARNING_MS, PLATFORM_B_ACCEPT_WINDOW_MS } from './yemeksepeti.assumptions';

/** How the adapter reaches PLATFORM_B (Delivery Hero's middleware), validated at start by every app that calls it. Defaults are its production host from platforms.md; tests and the one-machine mode point it at the simulator. */
export class YemeksepetiClientConfig {
  /** Delivery Hero's POS integration middleware (platforms.md: the TR region's host). */
  @Matches(PLATFORM_BASE_URL, { message: 'PLATFORM_B_BASE_URL must be an http(s) URL without query' })
  PLATFORM_B_BASE_URL: string = 'https://integration-middleware-tr.me.restaurant-partners.com';

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
}

/** What its adapter reads: the shared client settings and its own. */
export type YemeksepetiClientSettings = PlatformHttpConfig & YemeksepetiClientConfig;
