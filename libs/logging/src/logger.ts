import pino, { Logger, LoggerOptions } from 'pino';
import { currentCorrelationId } from './correlation';
import { redactSecrets } from './redaction';

export interface LoggerSettings {
  service: string;
  level?: string;
  pretty?: boolean;
  /** Test hook: where lines go (default stdout). */
  destination?: pino.DestinationStream;
}

/**
 * A request or response is logged as these few fields only (never headers or body), whichever
 * logger it goes to; that is why the secret search leaves `req` and `res` out.
 */
export const LOG_SERIALIZERS = {
  req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};
const SERIALIZED: ReadonlySet<string> = new Set(Object.keys(LOG_SERIALIZERS));

/** pino options shared by the HTTP logger and the message/task loggers of an app. */
export function loggerOptions(settings: LoggerSettings): LoggerOptions {
  return {
    name: settings.service,
    level: settings.level ?? 'info',
    base: { service: settings.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Secrets are censored by property name (redaction.ts): in every line, the root's bindings and,
    // through createLogger, every child's bindings.
    formatters: {
      log: (object) => redactSecrets(object, SERIALIZED),
      bindings: (bindings) => redactSecrets(bindings, SERIALIZED),
    },
    serializers: LOG_SERIALIZERS,
    messageKey: 'msg',
    mixin() {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
    transport: settings.pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
  };
}

export function createLogger(settings: LoggerSettings): Logger {
  const logger = settings.destination ? pino(loggerOptions(settings), settings.destination) : pino(loggerOptions(settings));
  return censoringChildBindings(logger);
}

/**
 * pino applies `formatters.bindings` to the root's bindings only, so the bindings of every child
 * (`logger.child({ ... })`, at any depth: children inherit the method) are censored here.
 */
function censoringChildBindings(logger: Logger): Logger {
  const child = logger.child;
  logger.child = function censoredChild(this: Logger, bindings, options) {
    return child.call(this, redactSecrets(bindings, SERIALIZED), options);
  } as Logger['child'];
  return logger;
}
