import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import { CORRELATION_HEADER, REQUEST_ID_HEADER, sanitiseCorrelationId } from './correlation';
import { createLogger, LOG_SERIALIZERS, LoggerSettings } from './logger';
import { BaseConfig } from '@courier/config';

/**
 * Structured JSON logs (nestjs-pino) with secrets redacted at the logger. Each HTTP request gets a
 * request id (the caller's X-Request-Id / X-Correlation-Id when it is a plausible token), which is
 * also the correlation id carried into messages and outbound calls.
 */
@Module({})
export class LoggingModule {
  /**
   * Level and pretty-printing come from `settings` when given, else from BaseConfig (LOG_LEVEL,
   * LOG_PRETTY); apps without a BaseConfig (no database, e.g. mock-receiver) pass them explicitly.
   */
  static forRoot(settings: Pick<LoggerSettings, 'service' | 'destination' | 'level' | 'pretty'>): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [{ token: BaseConfig, optional: true }],
          useFactory: (config?: BaseConfig) => {
            const level = settings.level ?? config?.LOG_LEVEL ?? 'info';
            const pretty = settings.pretty ?? config?.LOG_PRETTY ?? false;
            const destination = settings.destination ?? (pretty ? undefined : pino.destination({ sync: false }));
            return {
          pinoHttp: {
            // The app's logger (createLogger censors secrets in lines and child bindings); pino-http
            // makes its request loggers children of it.
            logger: createLogger({ ...settings, level, pretty, destination }),
            serializers: LOG_SERIALIZERS,
            genReqId: (req: IncomingMessage) =>
              (req as IncomingMessage & { id?: string }).id ??
              sanitiseCorrelationId(req.headers[REQUEST_ID_HEADER]) ??
              sanitiseCorrelationId(req.headers[CORRELATION_HEADER]) ??
              randomUUID(),
            autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') || req.url === '/metrics' },
            quietReqLogger: true,
          },
            };
          },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
