import { IsInt, IsOptional, Matches, Max, Min, registerDecorator } from 'class-validator';
import { BaseConfig, EmptyIsUnset, ToNumber } from '@courier/config';

/**
 * A fast-path claim must outlast the geocoder call processing may make, or every order waiting on a
 * slow geocoder would be processed a second time through the broker.
 */
function OutlastsGeocoder() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'outlastsGeocoder',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown, args) => {
          const config = args?.object as IntakeConfig;
          return !config.GEOCODER_URL || typeof value !== 'number' || value > config.GEOCODER_TIMEOUT_MS;
        },
        defaultMessage: () => `${propertyName} must be longer than GEOCODER_TIMEOUT_MS when GEOCODER_URL is set`,
      },
    });
}

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

  /**
   * Orders this replica processes itself, right after accepting them, at once (docs/intake-api.md,
   * "Processing in the accepting process"); beyond it, and with 0, orders go through the broker.
   */
  @ToNumber()
  @IsInt({ message: 'INTAKE_LOCAL_PROCESSING_LIMIT must be an integer' })
  @Min(0, { message: 'INTAKE_LOCAL_PROCESSING_LIMIT must be at least 0' })
  @Max(10_000, { message: 'INTAKE_LOCAL_PROCESSING_LIMIT must be at most 10000' })
  INTAKE_LOCAL_PROCESSING_LIMIT: number = 256;

  /**
   * How long an order taken into local processing keeps its order.received from the relay; after
   * it, the broker path takes over. The default covers the worst processing that still succeeds: a
   * geocoder call (GEOCODER_TIMEOUT_MS, 5 s), a wait for a pool connection (5 s) and the statement
   * (statement_timeout 30 s). At most 5 minutes: the stuck-order sweeper re-publishes after 10.
   */
  @ToNumber()
  @IsInt({ message: 'INTAKE_LOCAL_PROCESSING_LEASE_MS must be an integer' })
  @Min(100, { message: 'INTAKE_LOCAL_PROCESSING_LEASE_MS must be at least 100' })
  @Max(300_000, { message: 'INTAKE_LOCAL_PROCESSING_LEASE_MS must be at most 300000' })
  @OutlastsGeocoder()
  INTAKE_LOCAL_PROCESSING_LEASE_MS: number = 60_000;
}
