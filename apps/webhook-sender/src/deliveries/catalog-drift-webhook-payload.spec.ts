import { catalogDriftDetected } from '../../test/order-events.fixture';
import { availabilityWebhookId, catalogDriftWebhookId, InvalidRestaurantEventError, webhookFromCatalogDriftEvent } from './restaurant-webhook-payload';

describe('webhookFromCatalogDriftEvent', () => {
  it('the event’s fields in the order webhooks’ shape: event first, the changes in order, the time found as timestamp, no restaurantId', () => {
    const draft = webhookFromCatalogDriftEvent(catalogDriftDetected);
    expect(draft.body).toBe(
      '{"event":"catalog.drift_detected","driftEventId":"9c2e4f61-7a3b-4d8e-b5f0-2a1c6e8d4b37","integrationId":"1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9","provider":"SOME_PLATFORM","providerRestaurantId":"store-77","importId":"3f7a9b2c-1d4e-4f60-a718-9b2c3d4e5f60","changes":[{"kind":"price","platformProductId":"prd-101","productCode":"LHM-1","before":90,"after":95.5},{"kind":"name","platformProductId":"prd-102","productCode":"AYR-1","before":"Ayran","after":"Ayran 300 ml"},{"kind":"status","platformProductId":"prd-103","productCode":null,"before":"ACTIVE","after":"INACTIVE"},{"kind":"added","platformProductId":"prd-104","productCode":null,"before":null,"after":null}],"omittedChanges":0,"timestamp":"2026-11-21T12:20:00.000Z"}',
    );
    expect(draft).toMatchObject({
      event: 'catalog.drift_detected',
      restaurantId: catalogDriftDetected.restaurantId,
      orderId: null,
      yemekKuryeOrderId: null,
      integrationId: catalogDriftDetected.integrationId,
      sourceKey: `catalog.drift_detected:${catalogDriftDetected.driftEventId}`,
    });
  });

  it('keeps only the contract’s fields of each change, in its order', () => {
    const change = { after: 'removed-by-platform', extra: 'x', before: 'Lahmacun', productCode: 'LHM-1', platformProductId: 'prd-101', kind: 'linked_removed' };
    const body = JSON.parse(webhookFromCatalogDriftEvent({ ...catalogDriftDetected, changes: [change], internal: true }).body);
    expect(body.changes).toEqual([{ kind: 'linked_removed', platformProductId: 'prd-101', productCode: 'LHM-1', before: 'Lahmacun', after: 'removed-by-platform' }]);
    expect(Object.keys(body.changes[0])).toEqual(['kind', 'platformProductId', 'productCode', 'before', 'after']);
    expect(body).not.toHaveProperty('internal');
    expect(body).not.toHaveProperty('restaurantId');
  });

  it('the webhook id is a version 5 UUID of the drift id: the same for the same drift, another for another, never an availability id', () => {
    const id = webhookFromCatalogDriftEvent(catalogDriftDetected).deliveryId;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(webhookFromCatalogDriftEvent({ ...catalogDriftDetected, changes: catalogDriftDetected.changes.slice(1) }).deliveryId).toBe(id);
    expect(catalogDriftWebhookId(catalogDriftDetected.driftEventId)).toBe(id);
    expect(catalogDriftWebhookId('another-drift')).not.toBe(id);
    expect(id).not.toBe(catalogDriftDetected.driftEventId);
    // The same name under the availability namespace gives another id: the two kinds never collide.
    expect(availabilityWebhookId(catalogDriftDetected.driftEventId)).not.toBe(id);
  });

  it('refuses events it cannot turn into a webhook, naming the fields', () => {
    const change = catalogDriftDetected.changes[0];
    const bad: unknown[] = [
      null,
      [],
      'price',
      { ...catalogDriftDetected, driftEventId: '' },
      { ...catalogDriftDetected, restaurantId: undefined },
      { ...catalogDriftDetected, integrationId: 7 },
      { ...catalogDriftDetected, importId: undefined },
      { ...catalogDriftDetected, changes: [] },
      { ...catalogDriftDetected, changes: 'price' },
      { ...catalogDriftDetected, changes: [null] },
      { ...catalogDriftDetected, changes: [{ ...change, kind: 'renamed' }] },
      { ...catalogDriftDetected, changes: [{ ...change, platformProductId: '' }] },
      { ...catalogDriftDetected, changes: [{ ...change, productCode: 5 }] },
      { ...catalogDriftDetected, changes: [{ ...change, before: { amount: 90 } }] },
      { ...catalogDriftDetected, changes: [{ ...change, after: Number.NaN }] },
      { ...catalogDriftDetected, changes: [{ ...change, after: undefined }] },
      { ...catalogDriftDetected, detectedAt: 'yesterday' },
    ];
    for (const payload of bad) expect(() => webhookFromCatalogDriftEvent(payload)).toThrow(InvalidRestaurantEventError);
    expect(() => webhookFromCatalogDriftEvent({ ...catalogDriftDetected, importId: '', changes: [change, { ...change, kind: 'renamed', before: [] }] })).toThrow(
      'catalog.drift_detected without valid importId, changes[1].kind, changes[1].before',
    );
  });

  it('names at most ten wrong fields of a long list', () => {
    const changes = Array.from({ length: 30 }, (_, index) => ({ ...catalogDriftDetected.changes[0], platformProductId: index % 2 === 0 ? '' : `prd-${index}` }));
    expect(() => webhookFromCatalogDriftEvent({ ...catalogDriftDetected, changes })).toThrow(/changes\[18\]\.platformProductId and 5 more$/);
  });
});
