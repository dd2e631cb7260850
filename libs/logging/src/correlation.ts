import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

/** Header that carries the correlation id over HTTP and in message headers. */
export const CORRELATION_HEADER = 'x-correlation-id';
export const REQUEST_ID_HEADER = 'x-request-id';

interface CorrelationScope {
  correlationId: string;
  /** The logger of the app handling the request (several apps can share a process: local-suite). */
  logger?: Logger;
}

const storage = new AsyncLocalStorage<CorrelationScope>();

/** The correlation id of the request or message being handled, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** The logger the lines of the current request go to (set by the app's request logging), if any. */
export function currentScopeLogger(): Logger | undefined {
  return storage.getStore()?.logger;
}

/** Makes `logger` the one the current scope's lines go to (no-op outside a scope). */
export function setScopeLogger(logger: Logger): void {
  const scope = storage.getStore();
  if (scope) scope.logger = logger;
}

/** Runs `work` with `correlationId` visible to every log line and outgoing message inside it. */
export function withCorrelationId<T>(correlationId: string | undefined, work: () => T): T {
  return storage.run({ correlationId: correlationId || randomUUID() }, work);
}

/** Accepts a caller-supplied id only when it is a plausible token, so logs cannot be polluted. */
export function sanitiseCorrelationId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  return /^[A-Za-z0-9._:-]{1,128}$/.test(raw) ? raw : undefined;
}
