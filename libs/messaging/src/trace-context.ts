import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';

/**
 * W3C trace context across the outbox and the broker, as the correlation id goes: the producer's
 * `traceparent` (and `tracestate`) is stored in the outbox row's headers, sent as message headers,
 * and the consumer's handler runs in a span whose parent it names. With tracing off the API is a
 * no-op: nothing is stored and no span is made.
 */
const tracer = () => trace.getTracer('@courier/messaging');

/** The current trace context as message headers (empty when nothing is traced). */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a stored message's headers name (the root context when they name none). */
export function messageContext(headers: Record<string, string> | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, headers ?? {});
}

/**
 * Runs a consumer's handling of one message (or one scheduled task) in a CONSUMER span that
 * continues the producer's trace: the handler's queries, requests and events join that trace.
 */
export function withMessageSpan<T>(
  name: string,
  headers: Record<string, string> | undefined,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
  kind: SpanKind = SpanKind.CONSUMER,
): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, messageContext(headers), async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
