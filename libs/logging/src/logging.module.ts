import { DynamicModule, Inject, Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule, RequestMethod } from '@nestjs/common';
import { Logger as NestPinoLogger, LoggerModule, PARAMS_PROVIDER_TOKEN, Params, PinoLogger } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { Logger } from 'pino';
import { currentScopeLogger } from './correlation';
import { createLogger, LoggerSettings } from './logger';
import { requestLogging } from './request-logging';
import { BaseConfig } from '@courier/config';

function appLogger(params: Params): Logger {
  return (params.pinoHttp as { logger: Logger }).logger;
}

/** Writes the request lines of requestLogging with the app's logger. */
@Injectable()
class RequestLoggingMiddleware implements NestMiddleware {
  readonly use: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

  constructor(@Inject(PARAMS_PROVIDER_TOKEN) params: Params) {
    this.use = requestLogging(appLogger(params));
  }
}

/** nestjs-pino's PinoLogger writing to the logger of the request being handled, else to the app's. */
class ScopedPinoLogger extends PinoLogger {
  constructor(
    params: Params,
    private readonly root: Logger,
  ) {
    super(params);
  }

  override get logger(): Logger {
    return currentScopeLogger() ?? this.root;
  }
}

/**
 * The app's Nest logger (`app.useLogger(app.get(AppLogger))`: every `new Logger(context)` line):
 * nestjs-pino's Logger, whose lines go to the logger of the request being handled (its app's, when
 * several apps share a process) or else to this app's, and carry the correlation id (mixin).
 */
@Injectable()
export class AppLogger extends NestPinoLogger {
  constructor(@Inject(PARAMS_PROVIDER_TOKEN) params: Params) {
    super(new ScopedPinoLogger(params, appLogger(params)), params);
  }
}

/**
 * Structured JSON logs (nestjs-pino) with secrets redacted at the logger. Each HTTP request gets a
 * request id (the caller's X-Request-Id / X-Correlation-Id when it is a plausible token), which is
 * also the correlation id carried into log lines, messages and outbound calls; one line is logged
 * per request when it is done (request-logging.ts).
 */
@Module({})
export class LoggingModule implements NestModule {
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
          useFactory: (config?: BaseConfig): Params => {
            const level = settings.level ?? config?.LOG_LEVEL ?? 'info';
            const pretty = settings.pretty ?? config?.LOG_PRETTY ?? false;
            const destination = settings.destination ?? (pretty ? undefined : pino.destination({ sync: false }));
            return {
              // The app's logger (createLogger censors secrets in lines and child bindings). No
              // per-request logger or scope of nestjs-pino (its pino-http middleware is off:
              // forRoutes []): requests are logged by RequestLoggingMiddleware, and the lines written
              // while handling one reach the right logger through the correlation scope (AppLogger).
              pinoHttp: { logger: createLogger({ ...settings, level, pretty, destination }) },
              forRoutes: [],
            };
          },
        }),
      ],
      providers: [RequestLoggingMiddleware, AppLogger],
      exports: [LoggerModule, AppLogger],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestLoggingMiddleware).forRoutes({ path: '*', method: RequestMethod.ALL });
  }
}
