export * from './data-source-options';
export * from './migrations';
export * from './persistence.module';
export * from './embedded-postgres';
export * from './migrate-command';
export * from './errors';
export * from './write-coalescer';
