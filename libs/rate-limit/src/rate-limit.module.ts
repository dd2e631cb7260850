import { DynamicModule, Logger, Module, Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BaseConfig } from '@courier/config';
import { AUTH_FAILURE_REFUSAL } from '@courier/http';
import { AUTH_FAILURE_THROTTLE_OPTIONS, AuthFailures, AuthFailureThrottleOptions } from './auth-failures.service';
import { PostgresRateLimitStore } from './postgres-rate-limit.store';
import { RateLimiter } from './rate-limiter';
import { RateLimitSweep } from './rate-limit.sweep';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit.store';
import { RedisRateLimitStore } from './redis-rate-limit.store';

export interface RateLimitModuleOptions {
  /** The app's name: prefix of its Redis keys. */
  service: string;
  /** Provide AuthFailures (also as AUTH_FAILURE_REFUSAL, for @courier/http's ApiCredentialsGuard), through which the app's credential guards refuse; the config must be an AuthThrottledConfig. */
  authFailures?: AuthFailureThrottleOptions;
}

/**
 * The app's shared counters (Redis when REDIS_URL is set, else its PostgreSQL table) and the
 * RateLimiter over them. The app imports ScheduleModule.forRoot() once, for RateLimitSweep.
 */
@Module({})
export class RateLimitModule {
  static forRoot(options: RateLimitModuleOptions): DynamicModule {
    const throttle: Provider[] = options.authFailures
      ? [{ provide: AUTH_FAILURE_THROTTLE_OPTIONS, useValue: options.authFailures }, AuthFailures, { provide: AUTH_FAILURE_REFUSAL, useExisting: AuthFailures }]
      : [];
    return {
      module: RateLimitModule,
      global: true,
      providers: [
        {
          provide: RATE_LIMIT_STORE,
          inject: [BaseConfig, DataSource, 'MIGRATIONS_APPLIED'],
          useFactory: (config: BaseConfig, dataSource: DataSource): RateLimitStore =>
            config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL, new Logger('RedisRateLimitStore'), options.service) : new PostgresRateLimitStore(dataSource),
        },
        RateLimiter,
        RateLimitSweep,
        ...throttle,
      ],
      exports: [RATE_LIMIT_STORE, RateLimiter, ...(options.authFailures ? [AuthFailures, AUTH_FAILURE_REFUSAL] : [])],
    };
  }
}
