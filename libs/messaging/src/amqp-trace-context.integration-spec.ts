import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTracing, type TracingHandle } from '@courier/observability/tracing';
import { deleteTestTopology, describeWithBroker, silentLogger, testBrokerUrl, testNamespace, waitFor } from '@courier/testing';
import { AmqpTransport } from './amqp-transport';
import { outboxEvent } from './outbox';

describeWithBroker('trace context over RabbitMQ', () => {
  const exporter = new InMemorySpanExporter();
  const namespace = testNamespace('trace');
  const queue = { name: 'traced', bindings: ['probe.*'] };
  let tracing: TracingHandle | undefined;
  let transport: AmqpTransport;

  beforeAll(() => {
    tracing = startTracing('test-app', { exporter, instrument: false, env: {} });
    transport = new AmqpTransport({ url: testBrokerUrl(), topology: [queue], connectionName: `${namespace}:trace`, namespace, logger: silentLogger });
    transport.start();
  });

  afterAll(async () => {
    await transport?.close();
    await deleteTestTopology(namespace, [queue.name]);
    await tracing?.shutdown();
  });

  it('sends the outbox row\'s traceparent as a message header; the consumer\'s handler runs in a span of the producer\'s trace', async () => {
    await waitFor('connection', () => transport.isReady());
    const seen: string[] = [];
    await transport.consume(queue, async () => {
      seen.push(trace.getActiveSpan()?.spanContext().traceId ?? 'none');
    });
    const { row, producer } = trace.getTracer('test').startActiveSpan('POST /orders', (span) => {
      span.end();
      return { row: outboxEvent('probe.sent', { n: 1 }), producer: span.spanContext() };
    });
    // The relay publishes outside the producer's context.
    await context.with(ROOT_CONTEXT, () => transport.publish([{ messageId: row.id, routingKey: row.routingKey, payload: row.payload, headers: row.headers }]));
    await waitFor('the message handled', () => seen.length > 0, 15_000, 20);
    expect(seen).toEqual([producer.traceId]);
    const consumer = await waitFor('the consumer span', () => exporter.getFinishedSpans().find((span) => span.name === 'traced process'), 15_000, 20);
    expect(consumer?.parentSpanContext?.spanId).toBe(producer.spanId);
    expect(consumer?.attributes['messaging.system']).toBe('rabbitmq');
  }, 30_000);
});
