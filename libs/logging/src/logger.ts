import pino, { Logger, LoggerOptions } from 'pino';
import { currentCorrelationId } from './correlation';
import { REDACT_PATHS } from './redaction';

export interface LoggerSettings {
  service: string;
  level?: string;
  pretty?: boolean;
  /** Test hook: where lines go (default stdout). */
  destination?: pino.DestinationStream;
}

/** pino options shared by the HTTP logger and the message/task loggers of an app. */
export function loggerOptions(settings: LoggerSettings): LoggerOptions {
  return {
    name: settings.service,
    level: settings.level ?? 'info',
    base: { service: settings.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    messageKey: 'msg',
    mixin() {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
    transport: settings.pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
  };
}

export function createLogger(settings: LoggerSettings): Logger {
  return settings.destination ? pino(loggerOptions(settings), settings.destination) : pino(loggerOptions(settings));
}
