import path from 'node:path';
import request from 'supertest';
import { parsePrometheusText, samplesOf } from '@courier/testing';
import { makeDataDir, startReceiver, TestReceiver } from './__fixtures__/receiver';
import { signedHeaders, statusPayload, TEST_SECRET } from './__fixtures__/webhooks';

jest.setTimeout(30_000);

describe('mock-receiver /metrics', () => {
  let data: Awaited<ReturnType<typeof makeDataDir>>;
  let receiver: TestReceiver;

  beforeAll(async () => {
    data = await makeDataDir();
    receiver = await startReceiver({ WEBHOOK_SECRET: TEST_SECRET, RECEIVER_DATA_FILE: path.join(data.dir, 'metrics.json') });
  });
  afterAll(async () => {
    await receiver?.app.close();
    await data?.remove();
  });

  it('counts webhooks and API calls by route template and status, with no webhook or order id in any label', async () => {
    const http = request(receiver.app.getHttpServer());
    const body = JSON.stringify(statusPayload({ orderId: 'pos-ord-7781', yemekKuryeOrderId: 'yk-ord-7781', status: 'VALIDATED', timestamp: '2025-05-01T10:00:00Z' }));
    await http.post('/webhook/status').set(signedHeaders(body, { id: 'wh-metrics-1' })).set('Content-Type', 'application/json').send(body).expect(200);
    await http.post('/webhook/status').set(signedHeaders(body, { id: 'wh-metrics-2', secret: `whsec_${Buffer.from('another-secret-0123456789abcdef').toString('base64')}` })).set('Content-Type', 'application/json').send(body).expect(401);
    await http.get('/api/orders').expect(200);
    await http.get('/assets/no-such-file-4711.js').expect(404);

    const response = await http.get('/metrics').expect(200);
    const samples = parsePrometheusText(response.text);
    const count = (labels: Record<string, string>) => samplesOf(samples, 'http_request_duration_seconds_count', labels)[0]?.value;
    expect(count({ method: 'POST', route: '/webhook/status', status_code: '200' })).toBe(1);
    expect(count({ method: 'POST', route: '/webhook/status', status_code: '401' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/orders', status_code: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/assets/:name', status_code: '404' })).toBe(1);
    for (const id of ['pos-ord-7781', 'yk-ord-7781', 'wh-metrics', 'no-such-file-4711']) expect(response.text).not.toContain(id);
    expect(samplesOf(samples, 'process_cpu_user_seconds_total', { service: 'mock-receiver' })).toHaveLength(1);
    // No database and no broker in the receiver.
    expect(samples.some((sample) => /^(outbox_|scheduled_tasks_|messaging_|metrics_source_up)/.test(sample.name))).toBe(false);
  });
});
