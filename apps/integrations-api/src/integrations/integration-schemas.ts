import { JsonSchema, integrationCreateBodySchema, integrationRecordSchema, integrationUpdateBodySchema, PlatformRegistry } from '@courier/platforms';

/**
 * OpenAPI schemas of the integration bodies and record, derived from the platform registry. The
 * decorators hold these objects by reference; they are built from the neutral codes when this file
 * loads and rebuilt in place from the deployment's registry (wire codes from PLATFORM_*_CODE) when
 * the app is created, before the document is generated.
 */
export const INTEGRATION_CREATE_BODY: JsonSchema = {};
export const INTEGRATION_UPDATE_BODY: JsonSchema = {};
export const INTEGRATION_RECORD: JsonSchema = {};
export const INTEGRATION_PAGE: JsonSchema = {
  type: 'object',
  required: ['data', 'nextCursor'],
  properties: {
    data: { type: 'array', items: INTEGRATION_RECORD },
    nextCursor: { type: 'string', nullable: true, description: 'Cursor of the next page (pass as `cursor`); null on the last page.' },
  },
};

function replace(target: JsonSchema, source: JsonSchema): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}

export function describeIntegrationSchemas(registry: PlatformRegistry): void {
  replace(INTEGRATION_CREATE_BODY, integrationCreateBodySchema(registry));
  replace(INTEGRATION_UPDATE_BODY, integrationUpdateBodySchema(registry));
  replace(INTEGRATION_RECORD, integrationRecordSchema(registry));
}

describeIntegrationSchemas(PlatformRegistry.fromEnv({}));
