export * from './registry';
export * from './adapters';
export * from './simulators';
