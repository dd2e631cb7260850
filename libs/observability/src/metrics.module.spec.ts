import { Body, CanActivate, Controller, Get, Injectable, INestApplication, Module, OnModuleInit, Param, Post, UseGuards } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import request from 'supertest';
import type { ExecutionContext } from '@nestjs/common';
import { createHttpApp, ProblemException } from '@courier/http';
import { LoggingModule } from '@courier/logging';
import { parsePrometheusText, samplesOf } from '@courier/testing';
import { MetricsModule } from './metrics.module';
import { UNMATCHED_ROUTE } from './route-templates';

@Injectable()
class KeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest().headers['x-key'] !== 'k') throw new ProblemException(401, 'UNAUTHORIZED', 'no key');
    return true;
  }
}

@Controller('internal/orders')
class OrdersController {
  @Post(':id/transitions')
  @UseGuards(KeyGuard)
  transition(@Param('id') id: string, @Body() body: unknown): unknown {
    return { id, body };
  }

  @Get(':id')
  order(@Param('id') id: string): unknown {
    if (id.startsWith('missing')) throw new ProblemException(404, 'NOT_FOUND', 'no such order');
    return { id };
  }
}

/** What an app does to add its own metrics: inject the registry. */
@Injectable()
class DeliveryMetrics implements OnModuleInit {
  readonly delivered: Counter<'outcome'>;
  constructor(registry: Registry) {
    this.delivered = new Counter({ name: 'test_deliveries_total', help: 'test', labelNames: ['outcome'] as const, registers: [registry] });
  }
  onModuleInit(): void {
    this.delivered.inc({ outcome: 'delivered' }, 3);
  }
}

function appModule(service: string) {
  @Module({
    imports: [LoggingModule.forRoot({ service, level: 'silent' }), MetricsModule.forRoot({ service })],
    controllers: [OrdersController],
    providers: [KeyGuard, DeliveryMetrics],
  })
  class TestAppModule {}
  return TestAppModule;
}

async function startApp(service: string): Promise<INestApplication> {
  const app = await createHttpApp(appModule(service), { title: service });
  await app.init();
  return app;
}

describe('MetricsModule over HTTP (no database, no broker)', () => {
  let app: INestApplication;
  let other: INestApplication;

  beforeAll(async () => {
    app = await startApp('metrics-test');
    other = await startApp('other-app');
  });
  afterAll(async () => {
    await app?.close();
    await other?.close();
  });

  async function scrape(target = app) {
    const response = await request(target.getHttpServer()).get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return { text: response.text, samples: parsePrometheusText(response.text) };
  }

  it('measures every answer by route template and status, never by raw URL', async () => {
    const http = request(app.getHttpServer());
    await http.post('/internal/orders/ord_111/transitions').set('x-key', 'k').send({ trigger: 'APPROVE' }).expect(201);
    await http.post('/internal/orders/ord_222/transitions').set('x-key', 'k').send({ trigger: 'ASSIGN' }).expect(201);
    await http.post('/internal/orders/ord_333/transitions').send({}).expect(401);
    await http.get('/internal/orders/ord_444').expect(200);
    await http.get('/internal/orders/missing_555').expect(404);
    await http.get('/no/such/path/ord_666').expect(404);
    // Refused by the JSON parser before routing: still labelled with the route's template.
    await http.post('/internal/orders/ord_777/transitions').set('x-key', 'k').set('Content-Type', 'application/json').send(`{"pad":"${'x'.repeat(300_000)}"}`).expect(413);
    await http.post('/internal/orders/ord_888/transitions').set('x-key', 'k').set('Content-Type', 'application/json').send('{"broken":').expect(400);

    const { text, samples } = await scrape();
    const count = (labels: Record<string, string>) => samplesOf(samples, 'http_request_duration_seconds_count', labels).reduce((sum, sample) => sum + sample.value, 0);
    const transitions = '/internal/orders/:id/transitions';
    expect(count({ method: 'POST', route: transitions, status_code: '201' })).toBe(2);
    expect(count({ method: 'POST', route: transitions, status_code: '401' })).toBe(1);
    expect(count({ method: 'POST', route: transitions, status_code: '413' })).toBe(1);
    expect(count({ method: 'POST', route: transitions, status_code: '400' })).toBe(1);
    expect(count({ method: 'GET', route: '/internal/orders/:id', status_code: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/internal/orders/:id', status_code: '404' })).toBe(1);
    expect(count({ method: 'GET', route: UNMATCHED_ROUTE, status_code: '404' })).toBe(1);
    expect(samplesOf(samples, 'http_request_duration_seconds_bucket', { route: transitions, status_code: '201', le: '+Inf' })[0].value).toBe(2);
    expect(samplesOf(samples, 'http_request_duration_seconds_sum', { route: transitions, status_code: '201' })[0].value).toBeGreaterThan(0);
    // No id of any request appears anywhere in the exposition.
    expect(text).not.toMatch(/ord_|missing_/);
    for (const sample of samplesOf(samples, 'http_request_duration_seconds_count')) expect(sample.labels.service).toBe('metrics-test');
  });

  it('serves the default process metrics and the app\'s own metrics from the injected registry', async () => {
    const { samples } = await scrape();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect({ name, present: samplesOf(samples, name).length > 0 }).toEqual({ name, present: true });
    }
    expect(samplesOf(samples, 'test_deliveries_total', { outcome: 'delivered', service: 'metrics-test' })[0].value).toBe(3);
    // No database and no broker in this app: none of their series.
    expect(samples.some((sample) => /^(outbox_|scheduled_tasks_|messaging_|metrics_source_up)/.test(sample.name))).toBe(false);
  });

  it('keeps one registry per app: two apps in one process do not see each other\'s requests', async () => {
    await request(other.getHttpServer()).get('/internal/orders/ord_999').expect(200);
    const mine = (await scrape()).samples;
    const theirs = (await scrape(other)).samples;
    expect(samplesOf(theirs, 'http_request_duration_seconds_count', { route: '/internal/orders/:id', status_code: '200' })).toEqual([
      expect.objectContaining({ value: 1, labels: expect.objectContaining({ service: 'other-app' }) }),
    ]);
    expect(samplesOf(mine, 'http_request_duration_seconds_count', { route: '/internal/orders/:id', status_code: '200' })[0].value).toBe(1);
    expect(samplesOf(theirs, 'test_deliveries_total')[0].labels.service).toBe('other-app');
  });

  it('is left out of the OpenAPI document', async () => {
    const document = (await request(app.getHttpServer()).get('/docs-json').expect(200)).body;
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/internal/orders/{id}/transitions']));
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });
});
