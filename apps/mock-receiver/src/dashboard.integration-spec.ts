import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { FakeIntake } from './__fixtures__/fake-intake';
import { makeDataDir, startReceiver, TestReceiver } from './__fixtures__/receiver';
import { availabilityPayload, catalogDriftPayload, signedHeaders, statusPayload, TEST_SECRET } from './__fixtures__/webhooks';

// Debian's chromium, driven by playwright-core; no browser is ever downloaded. CI installs it
// with `apt-get install -y chromium`.
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', '..', '..', 'test-artifacts', 'mock-receiver');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) process.stdout.write(`mock-receiver dashboard browser tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium)\n`);

jest.setTimeout(90_000);

(hasChromium ? describe : describe.skip)('mock-receiver dashboard in headless Chromium', () => {
  let data: Awaited<ReturnType<typeof makeDataDir>>;
  const intake = new FakeIntake();
  let receiver: TestReceiver;
  let browser: Browser;
  let page: Page;
  const listRequests: string[] = [];
  /** The order the second test sends and delivers, and when its first status happened. */
  const delivered = { orderId: '', yemekKuryeOrderId: '', start: 0 };

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });

  async function postWebhook(body: string, headers: Record<string, string>): Promise<number> {
    const response = await fetch(`${receiver.baseUrl}/webhook/status`, { method: 'POST', headers, body });
    await response.text();
    return response.status;
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    data = await makeDataDir();
    const intakeUrl = await intake.start();
    receiver = await startReceiver(
      {
        SERVICE_API_URL: intakeUrl,
        SERVICE_API_KEY: 'browser-test-key-4242',
        SERVICE_RESTAURANT_ID: 'rest_browserTestRestaurant01',
        WEBHOOK_SECRET: TEST_SECRET,
        RECEIVER_DATA_FILE: path.join(data.dir, 'state.json'),
      },
      { listen: true },
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    });
    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (['/api/webhooks', '/api/orders', '/api/store-status', '/api/catalog-drift'].includes(url.pathname)) listRequests.push(url.pathname);
    });
    await page.goto(receiver.baseUrl!);
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.app.close();
    await intake.stop();
    await data?.remove();
  });

  it('shows the configuration, secrets masked, and a live stream', async () => {
    await page.getByRole('heading', { level: 1, name: 'Reference receiver' }).waitFor();
    await page.locator('#stream-state', { hasText: 'live' }).waitFor();
    const config = await page.locator('#config-list').innerText();
    expect(config).toContain('rest_browserTestRestaurant01');
    expect(config).toContain('****4242');
    expect(config).not.toContain('browser-test-key-4242');
    expect(config).toContain(`${receiver.baseUrl}/webhook/status`);
    expect(await page.getByRole('main').count()).toBe(1);
    await shot('01-dashboard.png');
  });

  it('sends a test order, shows it in the history, and its webhooks arrive live as the order moves', async () => {
    await page.getByRole('button', { name: 'Send test order' }).click();
    await page.locator('#send-result', { hasText: 'HTTP 202' }).waitFor();
    expect(intake.calls).toHaveLength(1);
    const orderId = intake.calls[0].body.orderId as string;
    const row = page.locator(`#orders-table tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('awaiting webhooks');

    const orders = (await (await fetch(`${receiver.baseUrl}/api/orders`)).json()) as { data: Array<{ orderId: string; yemekKuryeOrderId: string }> };
    const yemekKuryeOrderId = orders.data[0].yemekKuryeOrderId;
    const moves = [
      ['NEW', 'VALIDATED'],
      ['VALIDATED', 'PREPARED'],
      ['PREPARED', 'ON_DELIVERY'],
      ['ON_DELIVERY', 'DELIVERED'],
    ];
    const start = Date.now();
    Object.assign(delivered, { orderId, yemekKuryeOrderId, start });
    let lastBody = '';
    let lastId = '';
    for (const [index, [previousStatus, status]] of moves.entries()) {
      lastBody = JSON.stringify(statusPayload({ orderId, yemekKuryeOrderId, previousStatus, status, timestamp: new Date(start + index * 1000).toISOString() }));
      lastId = `wh-browser-${index}`;
      expect(await postWebhook(lastBody, signedHeaders(lastBody, { id: lastId }))).toBe(200);
      // Each one shows up without a reload: the page only learns of it from the event stream.
      await page.locator(`#webhooks-table tr[data-webhook-id="${lastId}"]`).waitFor();
      await page.locator(`#orders-table tr[data-order-id="${orderId}"] td[data-status="${status}"]`).waitFor();
    }
    expect(await page.locator('#webhooks-table tbody tr[data-outcome="applied"]').count()).toBe(4);
    const newest = await page.locator('#webhooks-table tbody tr').first().innerText();
    expect(newest).toContain('DELIVERED');
    expect(newest).toContain('valid');
    expect(await page.locator('#announcer').innerText()).toContain(`status DELIVERED for order ${orderId}, applied, signature valid`);
    expect(await row.locator('.history li').allInnerTexts()).toEqual(['VALIDATED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED']);

    // A retry of the last one, and a forged one: shown with their verdicts, the order unchanged.
    expect(await postWebhook(lastBody, signedHeaders(lastBody, { id: lastId, attempt: 2 }))).toBe(200);
    const forged = JSON.stringify(statusPayload({ orderId, yemekKuryeOrderId, status: 'CANCELED', timestamp: new Date(start + 10_000).toISOString() }));
    expect(await postWebhook(forged, { ...signedHeaders(forged, { secret: 'whsec_Zm9yZ2VkLXNlY3JldA==' }), 'X-Webhook-Id': 'wh-forged' })).toBe(401);
    await page.locator('#webhooks-table tr[data-outcome="duplicate"]').waitFor();
    const rejected = page.locator('#webhooks-table tr[data-outcome="rejected"]');
    await rejected.waitFor();
    expect(await rejected.innerText()).toContain('invalid');
    expect(await row.locator('td[data-status]').getAttribute('data-status')).toBe('DELIVERED');

    // Everything after the first load came over the stream (no polling of the lists).
    expect(listRequests.filter((pathname) => pathname === '/api/webhooks')).toHaveLength(1);
    await shot('02-order-delivered.png');
  });

  it('sends edited JSON, using the keyboard, and explains JSON it cannot send', async () => {
    await page.getByLabel('Edited JSON').check();
    const textarea = page.getByLabel('Order JSON');
    await textarea.waitFor();
    expect(JSON.parse(await textarea.inputValue())).toHaveProperty('items');

    await textarea.fill('{ "items": [');
    await page.getByRole('button', { name: 'Send test order' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#order-json-error', { hasText: 'Not sent' }).waitFor();
    expect(await textarea.getAttribute('aria-invalid')).toBe('true');
    expect(intake.calls).toHaveLength(1);

    const items = [{ productCode: 'LHM-1', productName: 'Lahmacun', quantity: 3, unitPrice: 90 }];
    await textarea.fill(JSON.stringify({ items, deliveryFee: 0, serviceFee: 0 }, null, 2));
    await page.getByRole('button', { name: 'Send test order' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#send-result', { hasText: 'HTTP 202' }).waitFor();
    await page.locator('#orders-table tbody tr').nth(1).waitFor();
    expect(await page.locator('#orders-table tbody tr').count()).toBe(2);
    expect(intake.calls).toHaveLength(2);
    expect(intake.calls[1].body).toMatchObject({ items: [{ ...items[0], totalAmount: 270 }], subtotal: 270, total: 270 });
    const firstRow = await page.locator('#orders-table tbody tr').first().getAttribute('data-order-id');
    expect(firstRow).toBe(intake.calls[1].body.orderId);
    await shot('03-edited-json.png');
  });

  it('shows a status whose webhook came late in its place, marked late, and the platform each order came from', async () => {
    const { orderId, yemekKuryeOrderId, start } = delivered;
    const row = page.locator(`#orders-table tr[data-order-id="${orderId}"]`);
    expect(await row.locator('.provider').innerText()).toBe('THIRD_PARTY');

    // ASSIGNED happened between PREPARED and ON_DELIVERY, but its webhook arrives after DELIVERED's.
    const late = JSON.stringify(statusPayload({ orderId, yemekKuryeOrderId, previousStatus: 'PREPARED', status: 'ASSIGNED', timestamp: new Date(start + 1500).toISOString() }));
    expect(await postWebhook(late, signedHeaders(late, { id: 'wh-browser-late' }))).toBe(200);
    await row.locator('.history li.late').waitFor();
    expect(await row.locator('.history li').allInnerTexts()).toEqual(['VALIDATED', 'PREPARED', 'ASSIGNED late', 'ON_DELIVERY', 'DELIVERED']);
    expect(await row.locator('.history li.late').getAttribute('title')).toMatch(/arrived after/);
    expect(await row.locator('td[data-status]').getAttribute('data-status')).toBe('DELIVERED');
    expect(await page.locator('#webhooks-table tr[data-webhook-id="wh-browser-late"]').getAttribute('data-outcome')).toBe('stale');

    // A platform order: never sent from here, known from its webhooks, which name the platform.
    expect(await page.locator('#tracked-empty').isVisible()).toBe(true);
    const platformOrder = JSON.stringify({
      ...statusPayload({ orderId: 'getir-7d1f0c', yemekKuryeOrderId: 'yk-browser-platform', status: 'VALIDATED', timestamp: new Date().toISOString() }),
      provider: 'PLATFORM_A',
    });
    expect(await postWebhook(platformOrder, signedHeaders(platformOrder, { id: 'wh-browser-platform' }))).toBe(200);
    const platformRow = page.locator('#tracked-table tr[data-tracked-id="yk-browser-platform"]');
    await platformRow.waitFor();
    expect(await platformRow.locator('td.platform').innerText()).toBe('PLATFORM_A');
    expect(await platformRow.innerText()).toContain('getir-7d1f0c');
    expect(await page.locator('#tracked-table tbody tr').count()).toBe(1);
    expect(await page.locator('#webhooks-table tr[data-webhook-id="wh-browser-platform"] .provider').innerText()).toBe('PLATFORM_A');

    // After a reload the same comes from the API.
    await page.reload();
    await page.locator('#tracked-table tr[data-provider="PLATFORM_A"]').waitFor();
    await page.locator(`#orders-table tr[data-order-id="${orderId}"] .history li.late`).waitFor();
    await page.locator('#orders').scrollIntoViewIfNeeded();
    await page.locator('#orders').screenshot({ path: path.join(ARTIFACTS, '04-late-status-and-platform.png') });
    await page.locator('#tracked').screenshot({ path: path.join(ARTIFACTS, '05-other-orders.png') });
  });

  it('shows the store-status panel update live as availability webhooks arrive, next to the order webhooks', async () => {
    const integrationId = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
    const storesBefore = listRequests.filter((pathname) => pathname === '/api/store-status').length;
    expect(await page.locator('#stores-empty').isVisible()).toBe(true);
    const start = Date.now();
    const until = new Date(start + 30 * 60_000).toISOString();

    // The platform closed the store the restaurant wants open.
    const closed = JSON.stringify(availabilityPayload({ integrationId, state: 'CLOSED', until, expectedState: 'OPEN', timestamp: new Date(start).toISOString(), platformReason: 'Orders left unanswered' }));
    expect(await postWebhook(closed, signedHeaders(closed, { id: 'wh-store-closed' }))).toBe(200);
    const row = page.locator(`#stores-table tr[data-integration-id="${integrationId}"]`);
    await page.locator(`#stores-table tr[data-integration-id="${integrationId}"][data-state="CLOSED"]`).waitFor();
    expect(await page.locator('#stores-empty').isVisible()).toBe(false);
    const text = await row.innerText();
    expect(text).toContain('SOME_PLATFORM');
    expect(text).toContain('store-77');
    expect(text).toContain('until');
    expect(text).toContain('Orders left unanswered');
    expect(text).toContain('changed by the platform');
    expect(await row.locator('td.reported time').getAttribute('datetime')).toBe(new Date(start).toISOString());
    // In the webhooks list, next to the order webhooks, with its verdicts.
    const received = page.locator('#webhooks-table tr[data-webhook-id="wh-store-closed"]');
    await received.waitFor();
    expect(await received.getAttribute('data-outcome')).toBe('applied');
    expect(await received.innerText()).toContain('CLOSED');
    expect(await received.innerText()).toContain('restaurant.availability_changed');
    expect(await received.innerText()).toContain('valid');
    expect(await page.locator('#announcer').innerText()).toContain('store store-77 on SOME_PLATFORM is CLOSED, applied, signature valid');

    // Open again: the panel follows, the earlier state listed; an older webhook arriving late changes nothing.
    const open = JSON.stringify(availabilityPayload({ integrationId, state: 'OPEN', expectedState: 'OPEN', timestamp: new Date(start + 60_000).toISOString(), platformReason: null }));
    expect(await postWebhook(open, signedHeaders(open, { id: 'wh-store-open' }))).toBe(200);
    await page.locator(`#stores-table tr[data-integration-id="${integrationId}"][data-state="OPEN"]`).waitFor();
    expect(await row.locator('.history li').allInnerTexts()).toEqual(['CLOSED']);
    expect(await row.innerText()).not.toContain('changed by the platform');
    const busy = JSON.stringify(availabilityPayload({ integrationId, state: 'BUSY', timestamp: new Date(start + 30_000).toISOString() }));
    expect(await postWebhook(busy, signedHeaders(busy, { id: 'wh-store-late' }))).toBe(200);
    await page.locator('#webhooks-table tr[data-webhook-id="wh-store-late"][data-outcome="stale"]').waitFor();
    expect(await row.getAttribute('data-state')).toBe('OPEN');
    expect(await page.locator('#stores-table tbody tr').count()).toBe(1);
    // Only the stream told the page; the orders are as they were.
    expect(listRequests.filter((pathname) => pathname === '/api/store-status')).toHaveLength(storesBefore);
    expect(await page.locator(`#orders-table tr[data-order-id="${delivered.orderId}"] td[data-status]`).getAttribute('data-status')).toBe('DELIVERED');
    await page.locator('#stores').scrollIntoViewIfNeeded();
    await page.locator('#stores').screenshot({ path: path.join(ARTIFACTS, '06-store-status.png') });

    // After a reload the panel comes from the API.
    await page.reload();
    await page.locator(`#stores-table tr[data-integration-id="${integrationId}"][data-state="OPEN"]`).waitFor();
    await page.locator('#webhooks-table tr[data-webhook-id="wh-store-closed"]').waitFor();
  });

  it('lists the menu drift webhooks in the "Menu drift" panel live, one row per difference, the latest found first', async () => {
    const integrationId = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
    const driftBefore = listRequests.filter((pathname) => pathname === '/api/catalog-drift').length;
    await page.getByRole('heading', { level: 2, name: 'Menu drift' }).waitFor();
    expect(await page.locator('#drift-empty').isVisible()).toBe(true);
    const start = Date.now();

    const first = catalogDriftPayload({
      integrationId,
      timestamp: new Date(start).toISOString(),
      changes: [
        { kind: 'price', platformProductId: 'prd-101', productCode: 'LHM-1', before: 90, after: 95.5 },
        { kind: 'added', platformProductId: 'prd-104', productCode: null, before: null, after: null },
      ],
    });
    const firstBody = JSON.stringify(first);
    expect(await postWebhook(firstBody, signedHeaders(firstBody, { id: 'wh-drift-1' }))).toBe(200);
    const price = page.locator(`#drift-table tr[data-drift-id="${first.driftEventId as string}"][data-kind="price"]`);
    await price.waitFor();
    expect(await page.locator('#drift-empty').isVisible()).toBe(false);
    expect(await price.locator('td.platform').innerText()).toContain('SOME_PLATFORM');
    expect(await price.locator('td.product').innerText()).toContain('LHM-1');
    expect(await price.locator('td.product').innerText()).toContain('prd-101');
    expect(await price.locator('td.kind').innerText()).toBe('price');
    expect(await price.locator('td.before-after').innerText()).toBe('90 → 95.5');
    expect(await price.locator('td.found time').getAttribute('datetime')).toBe(new Date(start).toISOString());
    const added = page.locator(`#drift-table tr[data-drift-id="${first.driftEventId as string}"][data-kind="added"]`);
    expect(await added.locator('td.product').innerText()).toContain('not linked');
    expect(await added.locator('td.before-after').innerText()).toBe('— → —');
    // In the webhooks list too, with its verdicts, and announced.
    const received = page.locator('#webhooks-table tr[data-webhook-id="wh-drift-1"]');
    await received.waitFor();
    expect(await received.getAttribute('data-outcome')).toBe('applied');
    expect(await received.innerText()).toContain('catalog.drift_detected');
    expect(await received.innerText()).toContain('2 menu changes');
    expect(await received.innerText()).toContain('valid');
    expect(await page.locator('#announcer').innerText()).toContain('2 menu changes on SOME_PLATFORM for store store-77, applied, signature valid');

    // A later finding goes on top; the first one retried is a duplicate and adds no row.
    const later = catalogDriftPayload({
      integrationId,
      timestamp: new Date(start + 60_000).toISOString(),
      changes: [{ kind: 'name', platformProductId: 'prd-102', productCode: 'AYR-1', before: 'Ayran', after: 'Ayran 300 ml' }],
    });
    const laterBody = JSON.stringify(later);
    expect(await postWebhook(laterBody, signedHeaders(laterBody, { id: 'wh-drift-2' }))).toBe(200);
    await page.locator(`#drift-table tr[data-drift-id="${later.driftEventId as string}"]`).waitFor();
    expect(await postWebhook(firstBody, signedHeaders(firstBody, { id: 'wh-drift-1', attempt: 2 }))).toBe(200);
    await page.locator('#webhooks-table tr[data-webhook-id="wh-drift-1"][data-outcome="duplicate"]').waitFor();
    const kinds = async () => page.locator('#drift-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind')));
    expect(await kinds()).toEqual(['name', 'price', 'added']);
    expect(await page.locator('#drift-table tbody tr').first().locator('td.before-after').innerText()).toBe('Ayran → Ayran 300 ml');
    // Only the stream told the page; the store-status panel is as it was.
    expect(listRequests.filter((pathname) => pathname === '/api/catalog-drift')).toHaveLength(driftBefore);
    expect(await page.locator(`#stores-table tr[data-integration-id="${integrationId}"]`).getAttribute('data-state')).toBe('OPEN');
    await page.locator('#drift').scrollIntoViewIfNeeded();
    await page.locator('#drift').screenshot({ path: path.join(ARTIFACTS, '07-menu-drift.png') });

    // After a reload the panel comes from the API, in the same order.
    await page.reload();
    await page.locator(`#drift-table tr[data-drift-id="${later.driftEventId as string}"]`).waitFor();
    expect(await kinds()).toEqual(['name', 'price', 'added']);
  });
});
