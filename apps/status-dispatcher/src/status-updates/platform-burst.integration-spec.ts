import { RecordedCall } from '@courier/platforms/simulators';
import { waitFor } from '@courier/testing';
import { TestApp } from '../../test/harness';
import { CREDENTIALS, fullestWindow, platformAOrder, PlatformCode, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

/**
 * Per platform, a burst of 1,000 status pushes keeps under the platform's call budget and
 * loses none. Each platform's budget is scaled down through PLATFORM_CALL_BUDGETS (so a burst waits
 * for it many times over, in seconds); where the simulator enforces the platform's documented limit
 * (PLATFORM_A's per-token limit, PLATFORM_C's per-endpoint one) it is scaled in the same proportion
 * to our budget as in production. PLATFORM_B and PLATFORM_D document no limit: their call logs are
 * checked against our budget only.
 */

/**
 * Every budget's window (the production ones are about a minute, and 11 s for PLATFORM_C). Long next
 * to PLATFORM_CALL_BUDGET_LATE_MS, as in production: a booked call reaches the platform up to that
 * (and its way there) after its slot.
 */
const WINDOW_MS = 8_000;
const LATE_MS = 500;
/**
 * How much later than its booked slot a call may reach the platform: LATE_MS and its way there,
 * which on a 2-core CI machine running the suite in parallel (this test's simulators share the
 * app's event loop) has taken more than 300 ms.
 */
const ARRIVAL_SLACK_MS = LATE_MS + 1_000;
/** The platform's own limit above our budget by the production margin (limit × documented / ours, window × documented / ours). */
const platformLimitOver = (limit: number, documented: { limit: number; windowMs: number }, ours: { limit: number; windowMs: number }) => ({
  limit: Math.floor((limit * documented.limit) / ours.limit),
  windowMs: Math.floor((WINDOW_MS * documented.windowMs) / ours.windowMs),
});
const BUDGETS = {
  // Production: 270 / 62 s per token under Getir's 300 / 60 s (then blocked 20 s).
  PLATFORM_A: { scopes: { token: 300 }, platformLimit: { ...platformLimitOver(300, { limit: 300, windowMs: 60_000 }, { limit: 270, windowMs: 62_000 }), blockMs: 2_000 } },
  PLATFORM_B: { scopes: { credentials: 300 } },
  // Production: 40 / 11 s per endpoint under the reported 50 / 10 s.
  PLATFORM_C: {
    scopes: { picked: 105, invoiced: 105, 'manual-shipped': 105, 'manual-delivered': 105 },
    platformLimit: platformLimitOver(105, { limit: 50, windowMs: 10_000 }, { limit: 40, windowMs: 11_000 }),
  },
  PLATFORM_D: { scopes: { credentials: 300 } },
} as const;

const budgetEnv = Object.entries(BUDGETS)
  .flatMap(([platform, { scopes }]) => Object.entries(scopes).map(([scope, limit]) => `${platform}:${scope}=${limit}/${WINDOW_MS}`))
  .join(',');

/** A status call found in a simulator's log: its time, answer, and the order and action it carries. */
interface StatusCall {
  at: number;
  status: number;
  answer: unknown;
  order: string;
  action: string;
}

const ACTIONS = ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'];

describe('a burst of 1,000 status pushes per platform, under its call budget', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms();
    platforms.a.options.rateLimit = BUDGETS.PLATFORM_A.platformLimit;
    platforms.c.options.rateLimit = BUDGETS.PLATFORM_C.platformLimit;
    t = await startPlatformApp(platforms, {
      env: { PLATFORM_A_PREPARE_HOLD_MS: '0', PLATFORM_C_POLL_INTERVAL_MS: '250', PLATFORM_CALL_BUDGETS: budgetEnv, PLATFORM_CALL_BUDGET_LATE_MS: String(LATE_MS) },
    });
    for (const platform of Object.keys(CREDENTIALS) as PlatformCode[]) await upsertIntegration(t, platform);
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  /** Runs `work` over `items`, `size` at a time. */
  async function inBatches<T, R>(items: T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
    const results: R[] = [];
    for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map((item, offset) => work(item, start + offset)))));
    return results;
  }

  /**
   * Pushes each order's actions (each round the next action of every order, 50 pushes at a time, so
   * each order's pushes go in order), waits until all have ended, and checks the burst: every update
   * sent, each order's calls made once each and in the order pushed, and the call log never over the
   * budget in any window. Every action pushed is one the platform has a call for (a skipped one would
   * book its slot but make no call, and the burst would test less).
   */
  async function burst(platform: PlatformCode, orders: Array<{ id: string; actions: string[] }>, statusCalls: () => StatusCall[]): Promise<void> {
    expect(orders.reduce((sum, order) => sum + order.actions.length, 0)).toBe(1_000);
    const before = statusCalls().length;
    const ids: string[] = [];
    for (let round = 0; orders.some((order) => order.actions.length > round); round += 1) {
      const responses = await inBatches(
        orders.filter((order) => order.actions.length > round),
        50,
        (order) => push(t, { providerOrderId: order.id, platform, action: order.actions[round] }),
      );
      for (const response of responses) expect({ round, status: response.status }).toEqual({ round, status: 202 });
      ids.push(...responses.map((response) => response.body.statusUpdateId));
    }
    expect(new Set(ids).size).toBe(1_000);

    await waitFor(
      `the ${platform} burst ended`,
      async () => (await t.sql(`SELECT count(*)::int AS n FROM status_updates WHERE platform = $1 AND state NOT IN ('sent', 'skipped', 'failed')`, [platform]))[0].n === 0,
      100_000,
      250,
    );
    expect(await t.sql(`SELECT state, count(*)::int AS n FROM status_updates WHERE platform = $1 GROUP BY state`, [platform])).toEqual([{ state: 'sent', n: 1_000 }]);

    const calls = statusCalls().slice(before);
    // No refusal (no 429, nothing else).
    expect(calls.filter((call) => call.status !== 200).map((call) => `${call.status} ${call.action} ${JSON.stringify(call.answer)}`)).toEqual([]);
    // Each order's calls: each once, in the order pushed.
    const perOrder = new Map<string, string[]>();
    for (const call of calls) perOrder.set(call.order, [...(perOrder.get(call.order) ?? []), call.action]);
    expect(new Map(orders.map((order) => [order.id, perOrder.get(order.id) ?? []]))).toEqual(new Map(orders.map((order) => [order.id, order.actions])));
    expect(calls).toHaveLength(1_000);

    // Never more calls than the budget in a window of its length, scope by scope (PLATFORM_C: per
    // endpoint), less ARRIVAL_SLACK_MS: the budget books slots, and a call reaches the platform a little
    // after its slot (claimed up to LATE_MS late, then its way there on a loaded machine); production
    // covers that with its margin under the platform's limit (checked above where the simulator has one: no 429).
    const scopes = BUDGETS[platform].scopes as Record<string, number>;
    const scopeOf = (call: StatusCall) => (platform === 'PLATFORM_C' ? { VERIFY: 'picked', PREPARE: 'invoiced', HANDOVER: 'manual-shipped', DELIVER: 'manual-delivered' }[call.action]! : Object.keys(scopes)[0]);
    for (const [scope, limit] of Object.entries(scopes)) {
      const inScope = calls.filter((call) => scopeOf(call) === scope);
      const fullest = fullestWindow(inScope, WINDOW_MS - ARRIVAL_SLACK_MS);
      expect({ scope, overBudget: Math.max(0, fullest - limit) }).toEqual({ scope, overBudget: 0 });
      // The burst had to wait for the budget: many times its limit.
      expect(inScope[inScope.length - 1].at - inScope[0].at).toBeGreaterThan(WINDOW_MS * (inScope.length / limit - 2));
    }
  }

  it('PLATFORM_A (Getir): 334 orders (restaurant courier) × VERIFY, PREPARE, DELIVER (two without DELIVER); under the per-token limit, no 429', async () => {
    const orders = await inBatches(Array.from({ length: 334 }), 25, async (_, index) => ({
      id: (await platformAOrder(platforms, t)).simulated.id,
      actions: index < 332 ? ['VERIFY', 'PREPARE', 'DELIVER'] : ['VERIFY', 'PREPARE'],
    }));
    const step = /^\/food-orders\/([^/]+)\/(verify|prepare|handover|deliver)$/;
    await burst('PLATFORM_A', orders, () =>
      platforms.a.calls.flatMap((call) => {
        const match = step.exec(call.path);
        return match ? [{ ...statusCall(call), order: match[1], action: match[2].toUpperCase() }] : [];
      }),
    );
  }, 150_000);

  it('PLATFORM_B (DH POS middleware): 500 orders, half vendor delivery (VERIFY, HANDOVER), half platform riders (VERIFY, PREPARE)', async () => {
    const orders = await inBatches(Array.from({ length: 500 }), 25, async (_, index) => {
      const delivery = index % 2 === 0 ? 'vendor' : 'platform';
      const { order, response } = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId, { delivery });
      expect(response.status).toBe(200);
      return { id: order.token, actions: delivery === 'vendor' ? ['VERIFY', 'HANDOVER'] : ['VERIFY', 'PREPARE'] };
    });
    const status = /^\/v2\/order\/status\/([^/]+)$/;
    const prepared = /^\/v2\/orders\/([^/]+)\/preparation-completed$/;
    const actionOf: Record<string, string> = { order_accepted: 'VERIFY', order_picked_up: 'HANDOVER', order_rejected: 'REJECT' };
    await burst('PLATFORM_B', orders, () =>
      platforms.b.calls.flatMap((call) => {
        const ready = prepared.exec(call.path);
        if (ready) return [{ ...statusCall(call), order: ready[1], action: 'PREPARE' }];
        const changed = status.exec(call.path);
        return changed ? [{ ...statusCall(call), order: changed[1], action: actionOf[(call.body as any)?.status] ?? String((call.body as any)?.status) }] : [];
      }),
    );
  }, 150_000);

  it('PLATFORM_C (Trendyol Go): 250 STORE packages × picked, invoiced, manual-shipped, manual-delivered; under the per-endpoint limit, no 429', async () => {
    const packages = Array.from({ length: 250 }, () => platforms.c.addPackage(CREDENTIALS.PLATFORM_C.settings.supplierId, CREDENTIALS.PLATFORM_C.settings.storeId, { deliveryType: 'STORE' }));
    await waitFor('the packages polled', async () => (await t.sql(`SELECT count(*)::int AS n FROM orders WHERE provider = 'PLATFORM_C'`))[0].n === packages.length, 30_000, 100);
    const orders = packages.map((pkg) => ({ id: pkg.id, actions: ACTIONS }));
    const bodyStep = /\/packages\/(picked|invoiced)$/;
    const manualStep = /\/packages\/([^/]+)\/(manual-shipped|manual-delivered)$/;
    const actionOf: Record<string, string> = { picked: 'VERIFY', invoiced: 'PREPARE', 'manual-shipped': 'HANDOVER', 'manual-delivered': 'DELIVER' };
    await burst('PLATFORM_C', orders, () =>
      platforms.c.calls.flatMap((call) => {
        if (call.method !== 'PUT') return [];
        const inBody = bodyStep.exec(call.path);
        if (inBody) return [{ ...statusCall(call), order: String((call.body as any)?.packageId), action: actionOf[inBody[1]] }];
        const inPath = manualStep.exec(call.path);
        return inPath ? [{ ...statusCall(call), order: inPath[1], action: actionOf[inPath[2]] }] : [];
      }),
    );
  }, 150_000);

  it('PLATFORM_D (Migros Yemek): 250 orders (restaurant delivery) × Approved, Prepared, Delivery, Completed', async () => {
    const orders = await inBatches(Array.from({ length: 250 }), 25, async () => {
      const { order, response } = await platforms.d.placeOrder(CREDENTIALS.PLATFORM_D.providerRestaurantId, { deliveryProvider: 'RESTAURANT' });
      expect(response.status).toBe(200);
      return { id: String(order.id), actions: ACTIONS };
    });
    const actionOf: Record<string, string> = { Approved: 'VERIFY', Prepared: 'PREPARE', Delivery: 'HANDOVER', Completed: 'DELIVER' };
    // The bodies are encrypted in the call log; the simulator keeps each decrypted body in `received`, in the same order.
    await burst('PLATFORM_D', orders, () => {
      const calls = platforms.d.calls.filter((call) => call.method === 'POST' && call.path.startsWith('/Order/v2/'));
      expect(calls).toHaveLength(platforms.d.received.length);
      return calls.map((call, index) => {
        const body = Object.fromEntries(Object.entries(platforms.d.received[index].body).map(([key, value]) => [key.toLowerCase(), value]));
        // `success: false` is Migros' refusal, whatever the HTTP status: counted as one (status 0).
        return { ...statusCall(call), status: (call.answer as any)?.success === true ? call.status : 0, order: String(body.orderid), action: actionOf[String(body.orderstatus)] ?? `${call.path} ${String(body.orderstatus)}` };
      });
    });
  }, 150_000);
});

function statusCall(call: RecordedCall): Pick<StatusCall, 'at' | 'status' | 'answer'> {
  return { at: call.at, status: call.status, answer: call.answer };
}
