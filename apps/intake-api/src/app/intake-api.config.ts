import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { BaseConfig, EmptyIsUnset, ToNumber } from '@courier/config';

/** Environment of intake-api (see README, "Configuration"). */
export class IntakeConfig extends BaseConfig {
  /** HTTP port of the order intake. */
  @ToNumber()
  @IsInt({ message: 'INTAKE_PORT must be an integer port number' })
  @Min(1)
  @Max(65535)
  INTAKE_PORT: number = 3000;

  /** Requests a minute per API key, shared by all replicas (decisions.md: 600). */
  @ToNumber()
  @IsInt({ message: 'INTAKE_RATE_LIMIT_PER_MINUTE must be a positive integer' })
  @Min(1, { message: 'INTAKE_RATE_LIMIT_PER_MINUTE must be at least 1' })
  INTAKE_RATE_LIMIT_PER_MINUTE: number = 600;

  /** Base URL of a Nominatim-compatible geocoder; unset: orders without coordinates stay without. */
  @EmptyIsUnset()
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'GEOCODER_URL must be an http:// or https:// URL' })
  GEOCODER_URL?: string;

  /** Timeout of one geocoder call. */
  @ToNumber()
  @IsInt({ message: 'GEOCODER_TIMEOUT_MS must be an integer' })
  @Min(100, { message: 'GEOCODER_TIMEOUT_MS must be at least 100' })
  @Max(60_000, { message: 'GEOCODER_TIMEOUT_MS must be at most 60000' })
  GEOCODER_TIMEOUT_MS: number = 5000;
}
