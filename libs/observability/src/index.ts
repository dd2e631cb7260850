export * from './metrics.module';
export * from './metrics.controller';
export * from './http-metrics';
export * from './route-templates';
export * from './database-metrics';
export * from './messaging-metrics';
export * from './source-status';
export * from './cached-sample';
