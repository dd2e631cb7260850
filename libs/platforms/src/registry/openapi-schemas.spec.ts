import { integrationCreateBodySchema, integrationRecordSchema, integrationUpdateBodySchema } from './openapi-schemas';
import { PlatformRegistry } from './platform-registry';

describe('OpenAPI schemas from the registry', () => {
  const registry = PlatformRegistry.fromEnv({ PLATFORM_A_CODE: 'GETIR' });

  it('describes the create body as one schema per platform, keyed by platform', () => {
    const schema = integrationCreateBodySchema(registry) as { oneOf: Array<{ required: string[]; properties: Record<string, { enum?: string[] }> }> };
    expect(schema.oneOf).toHaveLength(5);
    const getir = schema.oneOf.find((entry) => entry.properties.platform.enum?.[0] === 'GETIR')!;
    expect(getir.required).toEqual(['platform', 'providerRestaurantId', 'secretKey']);
  });

  it('lists every credential field in the update body and the record', () => {
    const update = integrationUpdateBodySchema(registry) as { properties: Record<string, unknown> };
    const record = integrationRecordSchema(registry) as { properties: Record<string, unknown> };
    for (const name of registry.credentialFieldNames()) {
      expect(update.properties).toHaveProperty(name);
      expect(record.properties).toHaveProperty(name);
    }
    expect(record.properties).toHaveProperty('createdAt');
  });
});
