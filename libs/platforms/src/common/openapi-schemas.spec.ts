import { integrationCreateBodySchema, integrationCreateSchemas, integrationRecordSchema, integrationUpdateBodySchema } from './openapi-schemas';
import { PlatformRegistry } from './platform-registry';

describe('OpenAPI schemas from the registry', () => {
  const registry = PlatformRegistry.fromEnv({ PLATFORM_A_CODE: 'GETIR' });

  it('describes the create body as one named schema per platform, keyed by platform', () => {
    const schemas = integrationCreateSchemas(registry) as Record<string, { required: string[]; properties: Record<string, { enum?: string[] }> }>;
    expect(Object.keys(schemas)).toHaveLength(5);
    const getir = schemas.IntegrationCreate_GETIR;
    expect(getir.properties.platform.enum).toEqual(['GETIR']);
    expect(getir.required).toEqual(['platform', 'providerRestaurantId', 'secretKey']);
    const body = integrationCreateBodySchema(registry) as { oneOf: Array<{ $ref: string }>; discriminator: { propertyName: string; mapping: Record<string, string> } };
    // Every alternative is a reference to one of those schemas, and the discriminator maps each wire code to its own.
    expect(body.oneOf.map((entry) => entry.$ref).sort()).toEqual(Object.keys(schemas).map((name) => `#/components/schemas/${name}`).sort());
    expect(body.discriminator).toEqual({ propertyName: 'platform', mapping: expect.objectContaining({ GETIR: '#/components/schemas/IntegrationCreate_GETIR' }) });
    for (const [wireCode, ref] of Object.entries(body.discriminator.mapping)) expect(schemas[ref.split('/').pop()!].properties.platform.enum).toEqual([wireCode]);
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
