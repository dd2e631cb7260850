import { JsonSchema, integrationCreateBodySchema, integrationCreateSchemas, integrationRecordSchema, integrationUpdateBodySchema, PlatformRegistry } from '@courier/platforms';

/**
 * OpenAPI schemas of the integration bodies and record, derived from the platform registry, as named
 * schemas of the document (INTEGRATION_SCHEMAS) that the decorators refer to. They are built from
 * the neutral codes when this file loads (the published document) and rebuilt in place from the
 * deployment's registry (wire codes from PLATFORM_*_CODE) when the app is created, before the
 * served document is generated.
 */
export const INTEGRATION_SCHEMAS: Record<string, JsonSchema> = {};

const named = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const INTEGRATION_CREATE_BODY = named('IntegrationCreate');
export const INTEGRATION_UPDATE_BODY = named('IntegrationUpdate');
export const INTEGRATION_RECORD = named('Integration');
export const INTEGRATION_PAGE = named('IntegrationPage');

export function describeIntegrationSchemas(registry: PlatformRegistry): void {
  for (const key of Object.keys(INTEGRATION_SCHEMAS)) delete INTEGRATION_SCHEMAS[key];
  Object.assign(INTEGRATION_SCHEMAS, {
    IntegrationCreate: { ...integrationCreateBodySchema(registry), description: 'One platform\'s whole field set, told apart by `platform`.' },
    ...integrationCreateSchemas(registry),
    IntegrationUpdate: integrationUpdateBodySchema(registry),
    Integration: integrationRecordSchema(registry),
    IntegrationPage: {
      type: 'object',
      required: ['data', 'nextCursor'],
      properties: {
        data: { type: 'array', items: INTEGRATION_RECORD },
        nextCursor: { type: 'string', nullable: true, description: 'Cursor of the next page (pass as `cursor`); null on the last page.' },
      },
    },
  });
}

describeIntegrationSchemas(PlatformRegistry.fromEnv({}));
