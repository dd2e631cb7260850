export * from './registry';
export * from './adapters';
