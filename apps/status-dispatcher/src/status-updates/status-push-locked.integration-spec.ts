import { TestApp } from '../../test/harness';
import { expectConsistentConcurrentPushes, expectOneVerifyFromConcurrentPushes, platformAOrder, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';

jest.setTimeout(120_000);

const HOLD_MS = 1_000;

/**
 * The push's other path: decided and written under the order's row lock, which a push takes after
 * STATUS_PUSH_OPTIMISTIC_ATTEMPTS conflicting writes in a row. 0 makes every push take it, so its
 * guards and its serialisation of one order's pushes are checked here on their own.
 */
describe.each([
  { attempts: '0', path: 'always under the row lock' },
  { attempts: '1', path: 'under the row lock after one conflict' },
])('status push $path (STATUS_PUSH_OPTIMISTIC_ATTEMPTS=$attempts)', ({ attempts }) => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms({ minStepIntervalMs: HOLD_MS });
    t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: String(HOLD_MS), STATUS_PUSH_OPTIMISTIC_ATTEMPTS: attempts } });
    await upsertIntegration(t, 'PLATFORM_A');
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const pushA = (providerOrderId: string, action: string) => push(t, { providerOrderId, platform: 'PLATFORM_A', action });

  it('20 concurrent identical pushes: one statusUpdateId, one platform call', () => expectOneVerifyFromConcurrentPushes(t, platforms));

  it('concurrent pushes of different actions of one order: each accepted once, history and events without gaps', async () => {
    const { simulated, yemekKuryeOrderId } = await platformAOrder(platforms, t);
    await expectConsistentConcurrentPushes(t, (action) => pushA(simulated.id, action), yemekKuryeOrderId);
    const metrics = await t.http.get('/metrics');
    // 0: never a conditional write to conflict; 1: the first conflict of a push takes the row lock.
    if (attempts === '0') expect(metrics.text).not.toMatch(/^status_push_write_conflicts_total\{/m);
    else expect(metrics.text).toMatch(/^status_push_write_conflicts_total\{resolution="locked"[,}].* [1-9]/m);
  });

  it('the guards hold on this path: DELIVER before PREPARE refused, PREPARE held, nothing after a cancel', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    expect((await pushA(simulated.id, 'DELIVER')).body.code).toBe('DELIVER_BEFORE_PREPARE');
    expect((await pushA(simulated.id, 'VERIFY')).status).toBe(202);
    const prepare = await pushA(simulated.id, 'PREPARE');
    expect(prepare.status).toBe(202);
    expect((await waitForState(t, prepare.body.statusUpdateId, ['held', 'sent', 'failed'])).state).toBe('held');
    expect((await pushA(simulated.id, 'CANCEL')).status).toBe(202);
    const after = await pushA(simulated.id, 'HANDOVER');
    expect([after.status, after.body.code]).toEqual([409, 'ORDER_CANCELED']);
  });
});
