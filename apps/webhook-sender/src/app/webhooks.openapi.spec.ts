import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { availabilityChanged, canceled, catalogDriftDetected, statusChanged } from '../../test/order-events.fixture';
import { webhookFromAvailabilityEvent, webhookFromCatalogDriftEvent } from '../deliveries/restaurant-webhook-payload';
import { webhookFromOrderEvent } from '../deliveries/webhook-payload';
import { WEBHOOK_SCHEMAS, WEBHOOKS } from './webhooks.openapi';

/** The documented webhook bodies are the ones the sender serialises: every field, in order, valid against the schema. */
describe('the webhooks of the OpenAPI document', () => {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  ajv.addVocabulary(['example']);
  const bodies: Array<[string, string]> = [
    ['OrderStatusChangedWebhook', webhookFromOrderEvent('order.status_changed', { ...statusChanged, yemekKuryeOrderId: '0f8b3a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b' }).body],
    ['OrderCanceledWebhook', webhookFromOrderEvent('order.canceled', canceled).body],
    ['RestaurantAvailabilityChangedWebhook', webhookFromAvailabilityEvent(availabilityChanged).body],
    ['RestaurantAvailabilityChangedWebhook', webhookFromAvailabilityEvent({ ...availabilityChanged, state: 'BUSY', until: '2026-11-21T12:40:00.000Z', expectedState: null, platformReason: null }).body],
    ['CatalogDriftDetectedWebhook', webhookFromCatalogDriftEvent(catalogDriftDetected).body],
    ['CatalogDriftDetectedWebhook', webhookFromCatalogDriftEvent({ ...catalogDriftDetected, changes: [{ kind: 'linked_removed', platformProductId: 'prd-9', productCode: 'LHM-1', before: null, after: null }] }).body],
  ];

  it.each(bodies)('%s describes the body sent, field for field', (name, body) => {
    const schema = WEBHOOK_SCHEMAS[name] as { required: string[]; properties: Record<string, unknown> };
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(schema.required);
    expect(Object.keys(schema.properties)).toEqual(schema.required);
    const validate = ajv.compile({ ...schema, additionalProperties: false });
    expect(validate(parsed) ? [] : validate.errors).toEqual([]);
  });

  it('names each webhook by its event and points at its schema', () => {
    for (const [event, item] of Object.entries(WEBHOOKS)) {
      const ref = item.post.requestBody.content['application/json'].schema.$ref.replace('#/components/schemas/', '');
      expect((WEBHOOK_SCHEMAS[ref] as { properties: { event: { enum: string[] } } }).properties.event.enum).toEqual([event]);
    }
  });
});
