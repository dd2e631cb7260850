import { createTestDatabase, sleep, TestDatabase } from '@courier/testing';
import { TestApp } from '../../test/harness';
import { platformAOrder, Platforms, push, startPlatformApp, startPlatforms, statusUpdate, upsertIntegration, waitForState } from '../../test/platforms';

jest.setTimeout(120_000);

const HOLD_MS = 3_000;

/** Held and retrying updates are rows with durable tasks: they survive a restart of the app in the middle. */
describe('status updates across restarts and retry limits', () => {
  let platforms: Platforms;
  let database: TestDatabase;
  let t: TestApp | undefined;

  beforeAll(async () => {
    platforms = await startPlatforms({ minStepIntervalMs: HOLD_MS });
    database = await createTestDatabase('status_dispatcher');
  });
  afterAll(async () => {
    await t?.close({ keepDatabase: true });
    await database?.drop();
    await platforms?.stop();
  });

  const start = (env: Record<string, string> = {}) => startPlatformApp(platforms, { database, env: { PLATFORM_A_PREPARE_HOLD_MS: String(HOLD_MS), ...env } });

  it('keeps a held PREPARE across a restart of the app in the middle of the hold, and sends it after the release', async () => {
    t = await start();
    await upsertIntegration(t, 'PLATFORM_A');
    const { simulated } = await platformAOrder(platforms, t);
    const verify = (await push(t, { providerOrderId: simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' })).body.statusUpdateId;
    await waitForState(t, verify, ['sent']);
    const prepare = (await push(t, { providerOrderId: simulated.id, platform: 'PLATFORM_A', action: 'PREPARE' })).body.statusUpdateId;
    const held = (await statusUpdate(t, prepare)).body;
    expect(held.state).toBe('held');

    await t.close({ keepDatabase: true });
    t = undefined;
    // Down for most of the hold; nothing may reach the platform meanwhile.
    await sleep(HOLD_MS / 2);
    expect(platforms.a.orders.get(simulated.id)!.steps.map((step) => step.step)).toEqual(['verify']);
    t = await start();
    const afterRestart = (await statusUpdate(t, prepare)).body;
    // Still held if the restart beat the release (a loaded machine may start the app later than that:
    // then the update is already on its way, and what follows checks it went once, after the release).
    if (Date.now() < Date.parse(held.releaseAt)) expect(afterRestart).toMatchObject({ state: 'held', releaseAt: held.releaseAt, attempts: 0 });
    const sent = await waitForState(t, prepare, ['sent', 'failed'], 15_000);
    expect(sent).toMatchObject({ state: 'sent', attempts: 1 });
    expect(Date.parse(sent.sentAt)).toBeGreaterThanOrEqual(Date.parse(held.releaseAt));
    const steps = platforms.a.orders.get(simulated.id)!.steps;
    expect(steps.map((step) => step.step)).toEqual(['verify', 'prepare']);
    expect(steps[1].at - steps[0].at).toBeGreaterThanOrEqual(HOLD_MS);
    await t.close({ keepDatabase: true });
    t = undefined;
  });

  it('keeps a retrying update across a restart while the platform is down, and sends it when both are back', async () => {
    t = await start();
    const { simulated } = await platformAOrder(platforms, t);
    platforms.a.setDown(true);
    const verify = (await push(t, { providerOrderId: simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' })).body.statusUpdateId;
    await waitForState(t, verify, ['retrying']);
    await t.close({ keepDatabase: true });
    t = undefined;
    platforms.a.setDown(false);
    t = await start();
    expect(await waitForState(t, verify, ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect(platforms.a.orders.get(simulated.id)!.steps.map((step) => step.step)).toEqual(['verify']);
    await t.close({ keepDatabase: true });
    t = undefined;
  });

  it('fails an update still not sent STATUS_PUSH_RETRY_MAX_AGE_MS after acceptance, keeping the last answer', async () => {
    t = await start({ STATUS_PUSH_RETRY_MAX_AGE_MS: '1000' });
    const { simulated } = await platformAOrder(platforms, t);
    platforms.a.failNext({ status: 503, times: 1000, body: { message: 'maintenance' }, match: (request) => request.path === `/food-orders/${simulated.id}/verify` });
    try {
      const verify = (await push(t, { providerOrderId: simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' })).body.statusUpdateId;
      const failed = await waitForState(t, verify, ['failed', 'sent'], 10_000);
      expect(failed).toMatchObject({ state: 'failed', error: expect.stringMatching(/STATUS_PUSH_RETRY_MAX_AGE_MS/), platformAnswer: { httpStatus: 503, outcome: 'retry', body: { message: 'maintenance' } } });
      expect(failed.attempts).toBeGreaterThan(1);
    } finally {
      platforms.a.clearFaults();
    }
  });
});
