import { readFileSync } from 'node:fs';
import path from 'node:path';
import newOrder from './getir/examples/new-order.json';
import cancelledOrder from './getir/examples/cancelled-order.json';
import { acceptanceWarningAt, deadlineFrom } from './common/acceptance';
import type { ParsedPlatformOrder, PlatformOrder } from './common/platform-adapter';
import { PlatformAdapters } from './common/platform-adapters';
import { PLATFORMS } from './platforms';
import { parsePlatformAOrder } from './getir/getir.orders';
import { parsePlatformBOrder } from './yemeksepeti/yemeksepeti.orders';
import { parsePlatformCPackage } from './trendyol-go/trendyol-go.orders';
import { parsePlatformDWebhook } from './migros-yemek/migros-yemek.orders';

const examples = __dirname;
const readExample = (file: string) => JSON.parse(readFileSync(path.join(examples, file), 'utf8'));
const orderOf = (parsed: ParsedPlatformOrder): PlatformOrder => {
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.order;
};
const MIN = 60_000;

/** Each platform's accept-by rule (its *.assumptions.ts) on orders in the platform's own shape. */
describe('accept-by deadlines', () => {
  const adapters = PlatformAdapters.fromEnv({}, { platforms: PLATFORMS });
  const adapter = (code: string) => adapters.get(code)!;

  it('PLATFORM_A (Getir): 5 minutes from checkoutDate, warned at 30 s (when Getir would phone the restaurant); nothing for a cancelled order', () => {
    const order = orderOf(parsePlatformAOrder(newOrder));
    const checkout = new Date(newOrder.checkoutDate);
    const receivedAt = new Date(checkout.getTime() + 5_000);
    const acceptBy = adapter('PLATFORM_A').orders.acceptBy(order, receivedAt)!;
    expect(acceptBy.toISOString()).toBe(new Date(checkout.getTime() + 5 * MIN).toISOString());
    expect(acceptanceWarningAt(acceptBy, receivedAt, adapter('PLATFORM_A').orders.acceptanceWarningMs).getTime()).toBe(checkout.getTime() + 30_000);
    expect(adapter('PLATFORM_A').orders.acceptBy(orderOf(parsePlatformAOrder(cancelledOrder, { restaurantRequired: false })), receivedAt)).toBeNull();
  });

  it('PLATFORM_A: a checkoutDate after our receipt (clock skew) counts from the receipt; no checkoutDate, from the receipt', () => {
    const receivedAt = new Date('2026-11-26T10:00:00.000Z');
    const skewed = orderOf(parsePlatformAOrder({ ...newOrder, checkoutDate: '2026-11-26T10:02:00.000Z' }));
    expect(adapter('PLATFORM_A').orders.acceptBy(skewed, receivedAt)).toEqual(new Date(receivedAt.getTime() + 5 * MIN));
    const { checkoutDate: _dropped, ...without } = newOrder;
    expect(adapter('PLATFORM_A').orders.acceptBy(orderOf(parsePlatformAOrder(without)), receivedAt)).toEqual(new Date(receivedAt.getTime() + 5 * MIN));
  });

  it('PLATFORM_B (DH): the dispatch\'s expiryDate; without one, the assumed 5 minutes; warned 3 minutes before', () => {
    const body = readExample('yemeksepeti/examples/dispatch-vendor-delivery-item-discounts.json').body;
    const receivedAt = new Date('2016-03-14T17:00:00.000Z');
    const order = orderOf(parsePlatformBOrder('vendor-1', body));
    expect(adapter('PLATFORM_B').orders.acceptBy(order, receivedAt)).toEqual(new Date(body.expiryDate));
    const { expiryDate: _dropped, ...without } = body;
    expect(adapter('PLATFORM_B').orders.acceptBy(orderOf(parsePlatformBOrder('vendor-1', without)), receivedAt)).toEqual(new Date(receivedAt.getTime() + 5 * MIN));
    expect(adapter('PLATFORM_B').orders.acceptanceWarningMs).toBe(3 * MIN);
  });

  it('PLATFORM_C (Trendyol Go): a Created package, 5 minutes (assumed) from its modification date; an accepted or cancelled one has none', () => {
    const pkg = readExample('trendyol-go/examples/packages-page-created-store.json').body.content[0];
    const receivedAt = new Date(pkg.packageModificationDate + 20_000);
    expect(adapter('PLATFORM_C').orders.acceptBy(orderOf(parsePlatformCPackage(pkg)), receivedAt)).toEqual(new Date(pkg.packageModificationDate + 5 * MIN));
    expect(adapter('PLATFORM_C').orders.acceptBy(orderOf(parsePlatformCPackage({ ...pkg, packageStatus: 'Picking' })), receivedAt)).toBeNull();
    expect(adapter('PLATFORM_C').orders.acceptBy(orderOf(parsePlatformCPackage({ ...pkg, packageStatus: 'Cancelled' })), receivedAt)).toBeNull();
    expect(adapter('PLATFORM_C').orders.acceptanceWarningMs).toBe(150_000);
  });

  it('PLATFORM_D (Migros): 5 minutes (assumed) from receipt, warned half-way', () => {
    const parsed = parsePlatformDWebhook(readExample('migros-yemek/examples/order-created.json'));
    if (!parsed.ok || parsed.kind !== 'order') throw new Error('not an order');
    const receivedAt = new Date('2026-11-26T10:00:00.000Z');
    expect(adapter('PLATFORM_D').orders.acceptBy(parsed.order, receivedAt)).toEqual(new Date(receivedAt.getTime() + 5 * MIN));
    expect(adapter('PLATFORM_D').orders.acceptanceWarningMs).toBe(150_000);
  });

  it('takes each window and warning from the configuration', () => {
    const tiny = PlatformAdapters.fromEnv({ PLATFORM_D_ACCEPT_WINDOW_MS: '800', PLATFORM_D_ACCEPT_WARNING_MS: '300', PLATFORM_A_ACCEPT_WINDOW_MS: '900' }, { platforms: PLATFORMS });
    const receivedAt = new Date('2026-11-26T10:00:00.000Z');
    const parsed = parsePlatformDWebhook(readExample('migros-yemek/examples/order-created.json'));
    if (!parsed.ok || parsed.kind !== 'order') throw new Error('not an order');
    expect(tiny.get('PLATFORM_D')!.orders.acceptBy(parsed.order, receivedAt)).toEqual(new Date(receivedAt.getTime() + 800));
    expect(tiny.get('PLATFORM_D')!.orders.acceptanceWarningMs).toBe(300);
    expect(tiny.get('PLATFORM_A')!.orders.acceptBy({ ...orderOf(parsePlatformAOrder(newOrder)), platformData: {} }, receivedAt)).toEqual(new Date(receivedAt.getTime() + 900));
    expect(() => PlatformAdapters.fromEnv({ PLATFORM_C_ACCEPT_WINDOW_MS: '0' }, { platforms: PLATFORMS })).toThrow(/PLATFORM_C_ACCEPT_WINDOW_MS/);
  });

  it('warns warningMs before the deadline, never before the order reached us', () => {
    const receivedAt = new Date(1_000_000);
    expect(acceptanceWarningAt(new Date(1_300_000), receivedAt, 100_000)).toEqual(new Date(1_200_000));
    expect(acceptanceWarningAt(new Date(1_300_000), receivedAt, 500_000)).toEqual(receivedAt);
    expect(deadlineFrom(new Date(900_000), receivedAt, 1_000)).toEqual(new Date(901_000));
    expect(deadlineFrom(new Date(Number.NaN), receivedAt, 1_000)).toEqual(new Date(1_001_000));
  });
});
