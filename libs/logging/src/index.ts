export * from './correlation';
export * from './redaction';
export * from './logger';
export * from './logging.module';
export * from './request-logging';
