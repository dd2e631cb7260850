import { trace } from '@opentelemetry/api';
import { configuredTraceExporters, startTracing } from './tracing';

describe('tracing settings', () => {
  it('is off with no OTEL_* setting, and startTracing registers no tracer provider', () => {
    expect(configuredTraceExporters({})).toEqual([]);
    expect(startTracing('intake-api', { env: {} })).toBeUndefined();
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
  });

  it('is on with an OTLP endpoint or a named exporter, as the standard settings say', () => {
    expect(configuredTraceExporters({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual(['otlp']);
    expect(configuredTraceExporters({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toEqual(['otlp']);
    expect(configuredTraceExporters({ OTEL_TRACES_EXPORTER: 'console, OTLP' })).toEqual(['console', 'otlp']);
  });

  it('stays off with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true, whatever else is set', () => {
    expect(configuredTraceExporters({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual([]);
    expect(configuredTraceExporters({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toEqual([]);
    expect(startTracing('intake-api', { env: { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' } })).toBeUndefined();
  });

  it('names the service after the app unless OTEL_SERVICE_NAME says otherwise, and stops cleanly', async () => {
    const named = startTracing('intake-api', { env: { OTEL_TRACES_EXPORTER: 'console' }, instrument: false });
    expect(named?.serviceName).toBe('intake-api');
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(true);
    await named?.shutdown();
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);

    // The resource's env detector reads the process environment itself.
    process.env.OTEL_SERVICE_NAME = 'courier-intake';
    try {
      const renamed = startTracing('intake-api', { env: { OTEL_TRACES_EXPORTER: 'console' }, instrument: false });
      expect(renamed?.serviceName).toBe('courier-intake');
      await renamed?.shutdown();
    } finally {
      delete process.env.OTEL_SERVICE_NAME;
    }
  });
});
