import { Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IntakeConfig } from '../app/intake-api.config';
import { PostgresRateLimitStore } from './postgres-rate-limit.store';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit.store';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/** The per-key rate limit: Redis when REDIS_URL is set, else PostgreSQL. */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [IntakeConfig, DataSource, 'MIGRATIONS_APPLIED'],
      useFactory: (config: IntakeConfig, dataSource: DataSource): RateLimitStore =>
        config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL, new Logger('RedisRateLimitStore')) : new PostgresRateLimitStore(dataSource),
    },
    RateLimitGuard,
  ],
  exports: [RateLimitGuard, RATE_LIMIT_STORE],
})
export class RateLimitModule {}
