export * from './validate-config';
export * from './transforms';
export * from './base-config';
export * from './config.module';
export * from './trust-proxy';
export * from './origins';
export * from './find-provider';
export * from './deployment-settings';
