import { IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';
import { ToNumber } from '@courier/config';
import { PLATFORM_BASE_URL, type PlatformHttpConfig } from '../common/platform-client.config';
import { PLATFORM_D_ACCEPT_WARNING_MS, PLATFORM_D_ACCEPT_WINDOW_MS } from './migros-yemek.assumptions';

/** How the adapter reaches PLATFORM_D (Migros Yemek), validated at start by every app that calls it. Defaults are its production host from platforms.md; tests and the one-machine mode point it at the simulator. */
export class MigrosYemekClientConfig {
  /** Migros Yemek (platforms.md: production https://gourmet.migrosonline.com, test https://test.gourmet.migrosonline.com). */
  @Matches(PLATFORM_BASE_URL, { message: 'PLATFORM_D_BASE_URL must be an http(s) URL without query' })
  PLATFORM_D_BASE_URL: string = 'https://gourmet.migrosonline.com';

  /**
   * The key PLATFORM_D's POST bodies are encrypted with: Migros gives the integrator one secret key
   * (migros-yemek.assumptions.ts). Unset: each integration's apiKey, as both known clients fall back to.
   */
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'PLATFORM_D_SECRET_KEY must be at least 8 characters' })
  @MaxLength(1024)
  PLATFORM_D_SECRET_KEY?: string;

  /**
   * The mode PLATFORM_D's bodies are encrypted in when the integration names none (its optional
   * `encryptionMode`): ECB, as three of the four known Migros clients do, or CBC with a zero IV (the
   * fourth). Inbound `{ value }` bodies are read in either (migros-yemek.assumptions.ts).
   */
  @IsIn(['ECB', 'CBC'], { message: 'PLATFORM_D_ENCRYPTION_MODE must be ECB or CBC' })
  PLATFORM_D_ENCRYPTION_MODE: 'ECB' | 'CBC' = 'ECB';

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

/** What its adapter reads: the shared client settings and its own. */
export type MigrosYemekClientSettings = PlatformHttpConfig & MigrosYemekClientConfig;
