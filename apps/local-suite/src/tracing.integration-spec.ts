import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, waitFor } from '@courier/testing';

const workspaceRoot = path.resolve(__dirname, '../../..');
const entry = path.join(workspaceRoot, 'dist/apps/local-suite/src/main.js');

interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number>;
  service: string;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type OtlpAttribute = { key: string; value: OtlpValue };

/** OTLP/JSON ids are hex; base64 is accepted too (the protobuf-JSON mapping). */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

function attributeMap(attributes: OtlpAttribute[] = []): Record<string, string | number> {
  const map: Record<string, string | number> = {};
  for (const { key, value } of attributes) map[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? String(value.boolValue)));
  return map;
}

/** An OTLP/HTTP receiver (what a collector listens on at :4318), keeping every span it is sent. */
async function startCollector(): Promise<{ url: string; spans: CollectedSpan[]; close: () => Promise<void> }> {
  const spans: CollectedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces' && String(request.headers['content-type']).startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: Array<{ resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }> }> }>;
        };
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributeMap(resourceSpans.resource?.attributes)['service.name']);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({ traceId: hexId(span.traceId), spanId: hexId(span.spanId), parentSpanId: hexId(span.parentSpanId), name: span.name, kind: span.kind, attributes: attributeMap(span.attributes), service });
            }
          }
        }
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Eight consecutive ports below Linux's ephemeral range (32768+), where no client socket can hold one. */
function freePortBase(): number {
  return 20000 + Math.floor(Math.random() * 12000);
}

/**
 * The one-machine suite from the BUILT code with tracing turned on by the standard settings only
 * (OTEL_EXPORTER_OTLP_ENDPOINT), exporting to a local OTLP receiver: an order and a status change
 * each make one trace across HTTP, the outbox, the transport and the webhook POST.
 */
describe('tracing (OTEL_EXPORTER_OTLP_ENDPOINT set): one trace from the request to the webhook POST', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'courier-tracing-'));
  chmodSync(dataDir, 0o755);
  const base = freePortBase();
  const ports = { intake: base, pos: base + 1, receiver: base + 2, platformA: base + 4, platformB: base + 5, platformC: base + 6, platformD: base + 7 };
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let child: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run "node tools/build.mjs" first (npm test does)`);
    collector = await startCollector();
    database = await createTestDatabase('tracing');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      LOCAL_DATA_DIR: dataDir,
      INTAKE_PORT: String(ports.intake),
      POS_PORT: String(ports.pos),
      PORT: String(ports.receiver),
      LOCAL_PLATFORM_A_PORT: String(ports.platformA),
      LOCAL_PLATFORM_B_PORT: String(ports.platformB),
      LOCAL_PLATFORM_C_PORT: String(ports.platformC),
      LOCAL_PLATFORM_D_PORT: String(ports.platformD),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      // Spans reach the receiver within a tenth of a second of ending (the default batches for 5 s).
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SEMCONV_STABILITY_OPT_IN: 'http',
    };
    for (const name of ['RABBITMQ_URL', 'ADMIN_TOKEN', 'INTERNAL_API_KEYS', 'SECRETS_ENCRYPTION_KEYS', 'LOG_LEVEL', 'OTEL_SERVICE_NAME', 'OTEL_TRACES_EXPORTER', 'OTEL_SDK_DISABLED']) delete env[name];
    for (const name of Object.keys(env)) if (name.startsWith('PLATFORM_')) delete env[name];
    child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await waitFor('suite start', () => output.includes('Courier integration suite is up') || child!.exitCode !== null, 90_000, 200);
    if (child.exitCode !== null) throw new Error(`suite exited early:\n${output}`);
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await collector?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Waits until `probe` finds what it looks for (spans arrive in batches, in any order). */
  const found = <T>(what: string, probe: () => T | undefined): Promise<T> => waitFor(what, async () => probe(), 30_000, 100) as Promise<T>;
  const inTrace = (traceId: string) => collector.spans.filter((span) => span.traceId === traceId);
  const serverSpan = (port: number, method: string, pathPattern: RegExp) =>
    collector.spans.find((span) => span.kind === 2 && Number(span.attributes['server.port']) === port && span.attributes['http.request.method'] === method && pathPattern.test(String(span.attributes['url.path'])));

  it('names the service and traces an order from intake\'s HTTP request to its handling in status-dispatcher', async () => {
    const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo.json'), 'utf8')) as { internalApiKey: string };
    const sent = await fetch(`http://127.0.0.1:${ports.receiver}/api/send-order`, { method: 'POST' });
    expect(sent.status).toBe(202);
    const orders = (await (await fetch(`http://127.0.0.1:${ports.receiver}/api/orders`)).json()) as { data: Array<{ yemekKuryeOrderId: string }> };
    const { yemekKuryeOrderId } = orders.data[0];
    await waitFor('order known to the lifecycle', async () => (await fetch(`http://127.0.0.1:${ports.pos}/internal/orders/${yemekKuryeOrderId}`, { headers: { 'X-Internal-Api-Key': demo.internalApiKey } })).status === 200, 30_000, 100);

    const intake = await found('intake\'s request span', () => serverSpan(ports.intake, 'POST', /\/webhook\/third-party\/order$/));
    expect(intake.service).toBe('local-suite');
    const handled = await found('status-dispatcher\'s order.created handling in the same trace', () =>
      inTrace(intake.traceId).find((span) => span.kind === 5 && span.name === 'status-dispatcher.order-events process'));
    // Its database work is part of the trace too (pg instrumentation under the consumer's span).
    await waitFor('a query of the handler in the trace', async () => inTrace(intake.traceId).some((span) => span.parentSpanId === handled.spanId && span.kind === 3), 30_000, 100);
  }, 90_000);

  it('traces a status change through the outbox, the sender and its webhook POST, whose traceparent the receiver gets', async () => {
    const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo.json'), 'utf8')) as { internalApiKey: string };
    const orders = (await (await fetch(`http://127.0.0.1:${ports.receiver}/api/orders`)).json()) as { data: Array<{ yemekKuryeOrderId: string }> };
    const { yemekKuryeOrderId } = orders.data[0];
    const moved = await fetch(`http://127.0.0.1:${ports.pos}/internal/orders/${yemekKuryeOrderId}/transitions`, {
      method: 'POST',
      headers: { 'X-Internal-Api-Key': demo.internalApiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ trigger: 'APPROVE' }),
    });
    expect(moved.status).toBe(200);
    await waitFor('the webhook at the receiver', async () => {
      const listed = (await (await fetch(`http://127.0.0.1:${ports.receiver}/api/webhooks`)).json()) as { data: Array<{ yemekKuryeOrderId: string }> };
      return listed.data.some((webhook) => webhook.yemekKuryeOrderId === yemekKuryeOrderId);
    }, 30_000, 100);

    const change = await found('the status change request\'s span', () => serverSpan(ports.pos, 'POST', /\/transitions$/));
    const isReceiverSpan = (span: CollectedSpan) => span.kind === 2 && Number(span.attributes['server.port']) === ports.receiver && span.attributes['http.request.method'] === 'POST';
    // The receiver's span, and each span from it back to the status change's request, unbroken.
    const chain = (): CollectedSpan[] | undefined => {
      const trace = inTrace(change.traceId);
      const byId = new Map(trace.map((span) => [span.spanId, span]));
      const received = trace.find(isReceiverSpan);
      const ancestors: CollectedSpan[] = [];
      for (let span = received; span; span = byId.get(span.parentSpanId)) ancestors.push(span);
      return ancestors.length > 0 && ancestors[ancestors.length - 1].spanId === change.spanId ? ancestors : undefined;
    };
    const ancestors = await found('the receiver\'s span of the webhook, back to the status change\'s request', chain).catch((error: Error) => {
      throw new Error(`${error.message}\nspans of the trace: ${JSON.stringify(inTrace(change.traceId).map(({ name, kind, spanId, parentSpanId }) => ({ name, kind, spanId, parentSpanId })))}`);
    });
    // The receiver's span is the child of the sender's POST: the request carried its traceparent.
    expect(ancestors[1]).toMatchObject({ kind: 3, attributes: expect.objectContaining({ 'http.request.method': 'POST', 'server.port': ports.receiver }) });
    // ...made by a delivery attempt, which continues the sender's handling of the order event.
    expect(ancestors.map((span) => span.name)).toEqual(expect.arrayContaining(['webhook deliver', 'webhook-sender.order-events process']));
  }, 90_000);
});
