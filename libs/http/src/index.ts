export * from './problem.exception';
export * from './problem.filter';
export * from './validation';
export * from './http-app';
export * from './json-body';
export * from './run-service';
export * from './net/address-policy';
export * from './correlation-headers';
