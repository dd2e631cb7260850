export * from './validate-config';
export * from './transforms';
export * from './base-config';
export * from './config.module';
