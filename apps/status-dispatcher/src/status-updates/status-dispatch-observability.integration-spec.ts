import { parsePrometheusText, samplesOf, waitFor } from '@courier/testing';
import { internal, TestApp } from '../../test/harness';
import { platformAOrder, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';

jest.setTimeout(180_000);

/** Long enough for a scrape (figures cached 5 s) to see the PREPARE held. */
const HOLD_MS = 8_000;

/**
 * The platform dispatch seen from outside, against the PLATFORM_A simulator: GET /metrics counts
 * the calls by platform, action and outcome, times them, and shows held updates; each platform call
 * carries X-Correlation-Id = the id of the push that caused it, on every attempt.
 */
describe('status dispatch metrics and correlation ids (PLATFORM_A)', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms({ minStepIntervalMs: HOLD_MS });
    t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: String(HOLD_MS) } });
    await upsertIntegration(t, 'PLATFORM_A');
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });
  beforeEach(() => platforms.a.clearFaults());

  const scrape = async () => {
    const response = await t.http.get('/metrics');
    expect(response.status).toBe(200);
    return parsePrometheusText(response.text);
  };
  const value = (samples: ReturnType<typeof parsePrometheusText>, name: string, labels: Record<string, string>) => samplesOf(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0);
  const pushA = (providerOrderId: string, action: string, requestId: string) => push(t, { providerOrderId, platform: 'PLATFORM_A', action }, { ...internal(), 'X-Request-Id': requestId });
  const callsOf = (id: string, step: string) => platforms.a.callsTo('POST', `/food-orders/${id}/${step}`);

  it('counts and times a sent call, shows the held PREPARE, and sends each push\'s correlation id', async () => {
    const before = await scrape();
    const { simulated } = await platformAOrder(platforms, t);
    const verify = await pushA(simulated.id, 'VERIFY', 'obs-verify-1');
    expect(verify.status).toBe(202);
    expect(verify.headers['x-request-id']).toBe('obs-verify-1');
    await waitForState(t, verify.body.statusUpdateId, ['sent', 'failed'], 30_000);
    expect(callsOf(simulated.id, 'verify').map((call) => call.headers['x-correlation-id'])).toEqual(['obs-verify-1']);

    const prepare = await pushA(simulated.id, 'PREPARE', 'obs-prepare-1');
    expect(prepare.status).toBe(202);
    // Held for HOLD_MS after the approval: a scrape within that time reports it.
    const held = await waitFor(
      'status_updates{state="held"} >= 1',
      async () => {
        const samples = await scrape();
        return value(samples, 'status_updates', { state: 'held', service: 'status-dispatcher' }) >= 1 ? samples : undefined;
      },
      30_000,
      250,
    );
    for (const state of ['queued', 'held', 'retrying']) expect(samplesOf(held!, 'status_updates', { state })).toHaveLength(1);
    expect(samplesOf(held!, 'status_updates_overdue_seconds', { state: 'held' })).toEqual([expect.objectContaining({ value: expect.any(Number) })]);
    await waitForState(t, prepare.body.statusUpdateId, ['sent', 'failed'], 30_000);
    expect(callsOf(simulated.id, 'prepare').map((call) => call.headers['x-correlation-id'])).toEqual(['obs-prepare-1']);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(delta('platform_calls_total', { platform: 'PLATFORM_A', action: 'VERIFY', outcome: 'sent' })).toBe(1);
    expect(delta('platform_calls_total', { platform: 'PLATFORM_A', action: 'PREPARE', outcome: 'sent' })).toBe(1);
    expect(delta('platform_call_duration_seconds_count', { platform: 'PLATFORM_A', action: 'VERIFY' })).toBe(1);
    expect(delta('platform_call_duration_seconds_count', { platform: 'PLATFORM_A', action: 'PREPARE' })).toBe(1);
    expect(value(after, 'platform_call_duration_seconds_sum', { platform: 'PLATFORM_A', action: 'VERIFY' })).toBeGreaterThan(0);
    expect(delta('status_updates_finished_total', { platform: 'PLATFORM_A', state: 'sent' })).toBe(2);
    expect(samplesOf(after, 'platform_calls_total', { platform: 'PLATFORM_A', action: 'VERIFY', outcome: 'sent', service: 'status-dispatcher' })).toHaveLength(1);
  });

  it('counts retries and network errors by outcome; every attempt carries the push\'s correlation id', async () => {
    const before = await scrape();
    const { simulated } = await platformAOrder(platforms, t);
    const match = (request: { path: string }) => request.path === `/food-orders/${simulated.id}/verify`;
    platforms.a.failNext({ status: 503, match });
    const id = (await pushA(simulated.id, 'VERIFY', 'obs-retry-1')).body.statusUpdateId;
    expect(await waitForState(t, id, ['sent', 'failed'], 30_000)).toMatchObject({ state: 'sent', attempts: 2 });
    const calls = callsOf(simulated.id, 'verify');
    expect(calls.map((call) => call.status)).toEqual([503, 200]);
    expect(calls.map((call) => call.headers['x-correlation-id'])).toEqual(['obs-retry-1', 'obs-retry-1']);

    const down = await platformAOrder(platforms, t);
    platforms.a.setDown(true);
    let downId: string;
    let cancelId: string;
    try {
      downId = (await pushA(down.simulated.id, 'VERIFY', 'obs-down-1')).body.statusUpdateId;
      await waitForState(t, downId, ['retrying'], 30_000);
      // Waits behind the VERIFY; the VERIFY's end wakes it (a task of the VERIFY's scope).
      cancelId = (await pushA(down.simulated.id, 'CANCEL', 'obs-cancel-1')).body.statusUpdateId;
    } finally {
      platforms.a.setDown(false);
    }
    await waitForState(t, downId!, ['sent', 'failed'], 30_000);
    await waitForState(t, cancelId!, ['sent', 'failed'], 30_000);
    expect(callsOf(down.simulated.id, 'verify').map((call) => call.headers['x-correlation-id'])).toEqual(['obs-down-1']);
    expect(callsOf(down.simulated.id, 'cancel').map((call) => call.headers['x-correlation-id'])).toEqual(['obs-cancel-1']);

    const after = await scrape();
    const delta = (labels: Record<string, string>) => value(after, 'platform_calls_total', labels) - value(before, 'platform_calls_total', labels);
    expect(delta({ platform: 'PLATFORM_A', action: 'VERIFY', outcome: 'retry' })).toBe(1);
    expect(delta({ platform: 'PLATFORM_A', action: 'VERIFY', outcome: 'network_error' })).toBeGreaterThanOrEqual(1);
    expect(delta({ platform: 'PLATFORM_A', action: 'VERIFY', outcome: 'sent' })).toBe(2);
    expect(delta({ platform: 'PLATFORM_A', action: 'CANCEL', outcome: 'sent' })).toBe(1);
    // The status update's log lines carry the push's id too.
    expect(t.logLines.map((line) => JSON.parse(line)).filter((line) => line.statusUpdateId === id && line.msg === 'platform call to be retried')).toEqual([
      expect.objectContaining({ correlationId: 'obs-retry-1' }),
    ]);
  });
});
