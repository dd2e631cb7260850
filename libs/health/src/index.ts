export * from './health.module';
export * from './tokens';
