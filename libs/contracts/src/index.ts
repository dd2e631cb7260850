export * from './error-codes';
export * from './routing-keys';
export * from './events';
