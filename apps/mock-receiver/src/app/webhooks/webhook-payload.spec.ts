import { availabilityPayload, cancelPayload, catalogDriftPayload, statusPayload } from '../../__fixtures__/webhooks';
import { checkWebhookPayload, isAvailabilityWebhook, isCatalogDriftWebhook } from './webhook-payload';

const ids = { orderId: 'o-1', yemekKuryeOrderId: '3f7c1f6e-0000-4000-8000-000000000001' };

describe('checkWebhookPayload', () => {
  it('accepts the payloads of interface.md, extra fields included', () => {
    expect(checkWebhookPayload('status', { ...statusPayload({ ...ids, status: 'VALIDATED', timestamp: '2025-01-01T10:00:00+03:00' }), extra: 1 })).toEqual([]);
    expect(checkWebhookPayload('cancel', cancelPayload({ ...ids, timestamp: '2025-01-01T10:00:00.123Z' }))).toEqual([]);
  });

  it('names every missing or mistyped field', () => {
    const errors = checkWebhookPayload('status', { event: 'order.status_changed', orderId: 7, timestamp: 'yesterday', provider: 1 });
    expect(errors.map((error) => error.field).sort()).toEqual(['orderId', 'provider', 'status', 'timestamp', 'yemekKuryeOrderId']);
  });

  it('refuses a payload sent to the other URL, and anything that is not an object', () => {
    expect(checkWebhookPayload('cancel', statusPayload({ ...ids, status: 'VALIDATED', timestamp: '2025-01-01T10:00:00Z' }))).toEqual([
      { field: 'event', message: 'must be order.canceled' },
    ]);
    expect(checkWebhookPayload('status', [])).toEqual([{ field: '', message: 'must be a JSON object' }]);
    expect(checkWebhookPayload('status', null)).toHaveLength(1);
  });

  it('requires the timestamp to carry an offset', () => {
    const payload = statusPayload({ ...ids, status: 'VALIDATED', timestamp: '2025-01-01T10:00:00' });
    expect(checkWebhookPayload('status', payload)).toEqual([{ field: 'timestamp', message: 'must be an ISO 8601 date-time with offset' }]);
  });

  it('takes restaurant.availability_changed on the status URL only, nulls where the contract allows them', () => {
    const payload = availabilityPayload({ integrationId: 'i-1', state: 'BUSY', timestamp: '2025-01-01T10:00:00Z', until: '2025-01-01T10:30:00+03:00', expectedState: null, platformReason: null });
    expect(isAvailabilityWebhook('status', payload)).toBe(true);
    expect(isAvailabilityWebhook('cancel', payload)).toBe(false);
    expect(checkWebhookPayload('status', { ...payload, extra: true })).toEqual([]);
    expect(checkWebhookPayload('cancel', payload)).toContainEqual({ field: 'event', message: 'must be order.canceled' });
    const errors = checkWebhookPayload('status', { ...payload, state: 'closed', expectedState: 'SHUT', until: 'later', platformReason: 3, provider: '' });
    expect(errors.map((error) => error.field)).toEqual(['provider', 'state', 'expectedState', 'until', 'platformReason']);
  });

  it('takes catalog.drift_detected on the status URL only, with nulls where the contract allows them', () => {
    const payload = catalogDriftPayload({ integrationId: 'i-1', timestamp: '2025-01-01T10:00:00Z' });
    expect(isCatalogDriftWebhook('status', payload)).toBe(true);
    expect(isCatalogDriftWebhook('cancel', payload)).toBe(false);
    expect(isAvailabilityWebhook('status', payload)).toBe(false);
    expect(checkWebhookPayload('status', { ...payload, extra: true })).toEqual([]);
    expect(checkWebhookPayload('cancel', payload)).toContainEqual({ field: 'event', message: 'must be order.canceled' });
  });

  it('names every wrong field of a drift webhook, inside its changes too', () => {
    const payload = catalogDriftPayload({ integrationId: 'i-1', timestamp: '2025-01-01T10:00:00Z' });
    const changes = [{ kind: 'renamed', platformProductId: '', productCode: 7, before: { amount: 1 }, after: null }, 'price'];
    const errors = checkWebhookPayload('status', { ...payload, importId: '', changes, timestamp: 'today' });
    expect(errors.map((error) => error.field)).toEqual(['importId', 'changes[0].kind', 'changes[0].platformProductId', 'changes[0].productCode', 'changes[0].before', 'changes[1]', 'timestamp']);
    expect(checkWebhookPayload('status', { ...payload, changes: [] })).toEqual([{ field: 'changes', message: 'must be a non-empty array' }]);
    const many = Array.from({ length: 50 }, (_, index) => ({ kind: 'price', platformProductId: `p-${index}`, productCode: null, before: 'x', after: Number.NaN }));
    expect(checkWebhookPayload('status', { ...payload, changes: many })).toHaveLength(20);
  });
});
