import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Header that carries the correlation id over HTTP and in message headers. */
export const CORRELATION_HEADER = 'x-correlation-id';
export const REQUEST_ID_HEADER = 'x-request-id';

interface CorrelationScope {
  correlationId: string;
}

const storage = new AsyncLocalStorage<CorrelationScope>();

/** The correlation id of the request or message being handled, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
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
