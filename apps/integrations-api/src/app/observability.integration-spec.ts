import { RoutingKey } from '@courier/contracts';
import { CORRELATION_HEADER } from '@courier/logging';
import { parsePrometheusText, samplesOf, waitFor } from '@courier/testing';
import { admin, credentials, platformBodies, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

describe('integrations-api observability: /metrics and correlation ids', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  async function scrape() {
    const response = await t.http.get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return { text: response.text, samples: parsePrometheusText(response.text) };
  }

  it('serves HTTP latency by route template and status, outbox and process metrics, with no id or secret in any label', async () => {
    const account = await t.createRestaurant({ name: 'Metrics Kebap' });
    await t.http.get(`/admin/v1/restaurants/${account.restaurantId}`).set(admin).expect(200);
    await t.http.get('/admin/v1/restaurants/rest_aaaaaaaaaaaaaaaaaaaaaaaa').set(admin).expect(404);
    await t.http.get('/api/v1/my/integrations').expect(401);
    const created = await t.http.post('/api/v1/my/integrations').set(credentials(account)).send(platformBodies().PLATFORM_A).expect(201);
    await t.http.get(`/api/v1/my/integrations/${created.body.id}`).set(credentials(account)).expect(200);
    await t.http.get(`/api/v1/my/integrations/${created.body.id}/nothing-here`).set(credentials(account)).expect(404);
    // The relay publishes the account and integration events (the harness consumes every queue).
    await waitFor('outbox drained', async () => (await t.sql("SELECT 1 FROM outbox_messages WHERE published_at IS NULL")).length === 0);

    const { text, samples } = await scrape();
    const count = (labels: Record<string, string>) => samplesOf(samples, 'http_request_duration_seconds_count', labels)[0]?.value;
    expect(count({ method: 'POST', route: '/admin/v1/restaurants', status_code: '201' })).toBe(1);
    expect(count({ method: 'GET', route: '/admin/v1/restaurants/:id', status_code: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/admin/v1/restaurants/:id', status_code: '404' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/v1/my/integrations', status_code: '401' })).toBe(1);
    expect(count({ method: 'POST', route: '/api/v1/my/integrations', status_code: '201' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/v1/my/integrations/:id', status_code: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '(unmatched)', status_code: '404' })).toBe(1);

    // Route labels are templates only: no restaurant id, integration id, key or secret anywhere.
    const routes = new Set(samplesOf(samples, 'http_request_duration_seconds_count').map((sample) => sample.labels.route));
    for (const route of routes) expect(route).toMatch(/^(\/[a-z0-9-]*|\/:[a-zA-Z]+)+$|^\(unmatched\)$/);
    for (const secret of [account.restaurantId, created.body.id, account.apiKey, account.apiSecret]) expect(text).not.toContain(secret);
    for (const sample of samples) expect(sample.labels.service).toBe('integrations-api');

    expect(samplesOf(samples, 'outbox_pending_messages')[0].value).toBe(0);
    expect(samplesOf(samples, 'outbox_oldest_pending_age_seconds')[0].value).toBe(0);
    expect(samplesOf(samples, 'metrics_source_up', { source: 'database' })[0].value).toBe(1);
    expect(samplesOf(samples, 'process_resident_memory_bytes')[0].value).toBeGreaterThan(0);
    // integrations-api consumes no queue: no consumer series.
    expect(samplesOf(samples, 'messaging_messages_handled_total')).toEqual([]);
  });

  it('carries X-Request-Id into the response, the request\'s log lines, the outbox row and the published message', async () => {
    const response = await t.http.post('/admin/v1/restaurants').set(admin).set('X-Request-Id', 'abc').send({ name: 'Correlated Kebap' }).expect(201);
    expect(response.headers['x-request-id']).toBe('abc');
    const restaurantId = response.body.restaurantId;

    const [row] = await t.sql('SELECT headers FROM outbox_messages WHERE routing_key = $1 AND payload->>\'restaurantId\' = $2', [RoutingKey.AccountCreated, restaurantId]);
    expect(row.headers).toEqual({ [CORRELATION_HEADER]: 'abc' });
    const delivered = await waitFor('account.created delivered', () =>
      t.delivered.find((message) => message.routingKey === RoutingKey.AccountCreated && (message.payload as { restaurantId?: string }).restaurantId === restaurantId),
    );
    expect(delivered!.headers[CORRELATION_HEADER]).toBe('abc');

    const requestLines = t.logLines.map((line) => JSON.parse(line)).filter((line) => line.req?.url === '/admin/v1/restaurants' && line.req?.id === 'abc');
    expect(requestLines.length).toBeGreaterThan(0);
    for (const line of requestLines) expect(line.correlationId).toBe('abc');
  });

  it('gives a request without an id a fresh one, and never accepts an implausible one', async () => {
    const plain = await t.http.get('/api/v1/my/account').expect(401);
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await t.http.get('/api/v1/my/account').set('X-Request-Id', 'abc"} injected').expect(401);
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const viaCorrelationHeader = await t.http.get('/api/v1/my/account').set('X-Correlation-Id', 'corr-42').expect(401);
    expect(viaCorrelationHeader.headers['x-request-id']).toBe('corr-42');
  });
});
