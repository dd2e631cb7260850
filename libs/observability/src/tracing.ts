/* eslint-disable @typescript-eslint/no-require-imports */
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * OpenTelemetry tracing, started before Nest (each app's `tracing.ts`, imported first by its
 * main.ts), and only when the standard settings ask for it: OTEL_TRACES_EXPORTER (otlp, console)
 * or OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. Off, nothing of the SDK is
 * loaded (it is required lazily here) and @opentelemetry/api stays a no-op. See docs/tracing.md.
 * This file imports nothing of the suite: it must run before express, pg, amqplib or Nest are
 * required, so that the instrumentations can patch them.
 */
export interface TracingHandle {
  serviceName: string;
  /** Ends the export: flushes the spans still buffered. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The settings that turn tracing on (default process.env); the SDK reads its own (service name, sampler, batching) from process.env. */
  env?: NodeJS.ProcessEnv;
  /** Test hook: export to this exporter (each span as it ends), whatever the settings say. */
  exporter?: SpanExporter;
  /** Test hook: false leaves the modules unpatched (jest's module registry cannot be patched anyway). */
  instrument?: boolean;
}

/**
 * The standard OpenTelemetry settings the apps honour (documented in .env.example and the README;
 * read by the SDK itself, not validated by the apps' config classes). Unset means the default.
 */
export const TRACING_SETTINGS: ReadonlyArray<{ name: string; value: string; meaning: string }> = [
  { name: 'OTEL_TRACES_EXPORTER', value: '', meaning: 'otlp, console or none (comma-separated); set (or an OTLP endpoint set): tracing on. Unset with no endpoint: off, nothing loaded.' },
  { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: '', meaning: 'OTLP/HTTP base URL (the collector\'s :4318); spans go to <url>/v1/traces as JSON. Set: tracing on.' },
  { name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', value: '', meaning: 'Full OTLP/HTTP traces URL, instead of the base URL above. Set: tracing on.' },
  { name: 'OTEL_EXPORTER_OTLP_HEADERS', value: '', meaning: 'Headers of the export requests (key=value,key2=value2), e.g. a vendor\'s API key.' },
  { name: 'OTEL_SERVICE_NAME', value: '', meaning: 'Service name of the spans; unset: the app\'s name (local-suite in the one-machine mode).' },
  { name: 'OTEL_RESOURCE_ATTRIBUTES', value: '', meaning: 'More resource attributes (key=value,...), e.g. deployment.environment.name=prod.' },
  { name: 'OTEL_TRACES_SAMPLER', value: 'parentbased_always_on', meaning: 'Sampler, e.g. parentbased_traceidratio with OTEL_TRACES_SAMPLER_ARG=0.1.' },
  { name: 'OTEL_TRACES_SAMPLER_ARG', value: '', meaning: 'The sampler\'s argument (the ratio of traces kept).' },
  { name: 'OTEL_BSP_SCHEDULE_DELAY', value: '5000', meaning: 'Milliseconds between batch exports (OTEL_BSP_MAX_QUEUE_SIZE, 2048: spans dropped beyond).' },
  { name: 'OTEL_SDK_DISABLED', value: 'false', meaning: 'true: tracing off whatever else is set.' },
];

const KNOWN_EXPORTERS = new Set(['otlp', 'console', 'none']);

function truthy(value: string | undefined): boolean {
  return ['true', '1', 'yes'].includes((value ?? '').trim().toLowerCase());
}

/** The exporters the standard settings name; empty when tracing stays off. */
export function configuredTraceExporters(env: NodeJS.ProcessEnv = process.env): string[] {
  if (truthy(env.OTEL_SDK_DISABLED)) return [];
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (named.includes('none')) return [];
  if (named.length > 0) return named;
  return env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ? ['otlp'] : [];
}

export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return configuredTraceExporters(env).length > 0;
}

/** Probes and scrapes would fill the traces with nothing of interest. */
const UNTRACED_PATHS = /^\/(health|metrics)(\/|\?|$)/;

let started: TracingHandle | undefined;

/**
 * Starts tracing when the settings turn it on (or a test passes an exporter); returns undefined
 * and loads nothing otherwise. The service name is OTEL_SERVICE_NAME, else `defaultServiceName`.
 * Idempotent: a second call (the one-machine composer imports every app) returns the first handle.
 */
export function startTracing(defaultServiceName: string, options: TracingOptions = {}): TracingHandle | undefined {
  if (started) return started;
  const env = options.env ?? process.env;
  const exporterNames = options.exporter ? [] : configuredTraceExporters(env);
  if (!options.exporter && exporterNames.length === 0) return undefined;

  const { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, ConsoleSpanExporter } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes, detectResources, envDetector } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');

  const processors = [];
  if (options.exporter) processors.push(new SimpleSpanProcessor(options.exporter));
  for (const name of exporterNames) {
    if (name === 'otlp') {
      const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
      // Endpoint, headers, timeout and compression from the standard OTEL_EXPORTER_OTLP_* settings.
      processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
    } else if (name === 'console') {
      processors.push(new BatchSpanProcessor(new ConsoleSpanExporter()));
    } else if (!KNOWN_EXPORTERS.has(name)) {
      process.stderr.write(`OTEL_TRACES_EXPORTER: "${name}" is not supported here (otlp, console, none); ignored\n`);
    }
  }
  if (processors.length === 0) return undefined;

  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the app's name.
  const resource = resourceFromAttributes({ 'service.name': defaultServiceName }).merge(detectResources({ detectors: [envDetector] }));
  const serviceName = String(resource.attributes['service.name'] ?? defaultServiceName);
  // Sampler from OTEL_TRACES_SAMPLER(_ARG), batch limits from OTEL_BSP_*: read by the SDK itself.
  const provider = new NodeTracerProvider({ resource, spanProcessors: processors });
  // W3C traceparent/tracestate (and baggage) propagation, AsyncLocalStorage context.
  provider.register();

  if (options.instrument !== false) {
    const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
    const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
    const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
    const { NestInstrumentation } = require('@opentelemetry/instrumentation-nestjs-core') as typeof import('@opentelemetry/instrumentation-nestjs-core');
    const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
    const { AmqplibInstrumentation } = require('@opentelemetry/instrumentation-amqplib') as typeof import('@opentelemetry/instrumentation-amqplib');
    registerInstrumentations({
      tracerProvider: provider,
      instrumentations: [
        new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url ?? '') }),
        new ExpressInstrumentation(),
        new NestInstrumentation(),
        // Only queries of a traced request or message: the pollers (outbox, tasks, deliveries) would
        // otherwise start a trace of their own every few hundred milliseconds.
        new PgInstrumentation({ requireParentSpan: true }),
        new AmqplibInstrumentation(),
      ],
    });
  }

  started = {
    serviceName,
    shutdown: async () => {
      await provider.shutdown();
      const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
      started = undefined;
    },
  };
  return started;
}
