import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, type TracingHandle } from '@courier/observability/tracing';
import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { outboxEvent } from './outbox';

const queue = { name: 'q.orders', bindings: ['order.*'], deliveryLimit: 2 };

describe('trace context through the outbox and the transport', () => {
  describe('with no OTEL_* setting', () => {
    it('starts nothing: no tracer provider, no span recorded, nothing stored with the outbox row', () => {
      expect(startTracing('test-app', { env: {} })).toBeUndefined();
      const span = trace.getTracer('test').startSpan('work');
      expect(span.isRecording()).toBe(false);
      const row = context.with(trace.setSpan(ROOT_CONTEXT, span), () => outboxEvent('order.received', {}));
      expect(Object.keys(row.headers)).not.toContain('traceparent');
      span.end();
    });
  });

  describe('with tracing on', () => {
    const exporter = new InMemorySpanExporter();
    let tracing: TracingHandle | undefined;
    beforeAll(() => {
      tracing = startTracing('test-app', { exporter, instrument: false, env: {} });
    });
    afterAll(async () => {
      await tracing?.shutdown();
    });

    it('stores the producer\'s traceparent with the outbox row and runs the consumer in a span of the same trace', async () => {
      expect(tracing?.serviceName).toBe('test-app');
      const tracer = trace.getTracer('test');
      // The producer: a request writing its event to the outbox in its transaction.
      const { row, producer } = tracer.startActiveSpan('POST /orders', (span) => {
        const written = outboxEvent('order.received', { orderId: 'o-1' });
        span.end();
        return { row: written, producer: span.spanContext() };
      });
      const stored = row.headers;
      expect(stored.traceparent).toBe(`00-${producer.traceId}-${producer.spanId}-01`);

      // The relay publishes later, outside the producer's context (a poll or another request).
      const bus = new InProcessTransport([queue], new InProcessBroker());
      const seen: Array<{ traceId?: string; parentSpanId?: string }> = [];
      await bus.consume(queue, async () => {
        const active = trace.getActiveSpan();
        seen.push({ traceId: active?.spanContext().traceId });
        // What the handler sends on (an HTTP call, its own outbox row) carries the same trace.
        const onward: Record<string, string> = {};
        propagation.inject(context.active(), onward);
        seen.push({ traceId: onward.traceparent?.split('-')[1] });
      });
      const other = tracer.startSpan('relay poll');
      await context.with(trace.setSpan(ROOT_CONTEXT, other), () => bus.publish([{ messageId: row.id, routingKey: row.routingKey, payload: row.payload, headers: stored }]));
      other.end();

      expect(seen).toEqual([{ traceId: producer.traceId }, { traceId: producer.traceId }]);
      const spans: ReadableSpan[] = exporter.getFinishedSpans();
      const consumer = spans.find((span) => span.name === 'q.orders process');
      expect(consumer?.spanContext().traceId).toBe(producer.traceId);
      expect(consumer?.parentSpanContext?.spanId).toBe(producer.spanId);
    });
  });
});
