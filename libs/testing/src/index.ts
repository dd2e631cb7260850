export * from './test-database';
export * from './broker';
export * from './wait';
export * from './messaging-harness';
export * from './prometheus-text';
export * from './app-harness';
export * from './read-your-writes';
export * from './slow-drip';
