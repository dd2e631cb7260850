export * from './rate-limit.store';
export * from './postgres-rate-limit.store';
export * from './redis-rate-limit.store';
export * from './rate-limiter';
export * from './rate-limit.module';
export * from './rate-limit.migration';
export * from './auth-failures';
export * from './auth-failure-throttle.guard';
