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

/** `verification` of an integration record (IntegrationPresenter). */
export const INTEGRATION_VERIFICATION_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['state', 'verifiedAt', 'detail', 'fingerprint'],
  description:
    'Whether the platform accepted the stored credentials for providerRestaurantId. Only a verified integration receives its platform orders; ' +
    'orders for an unverified or failed one are kept (withheld, visible to operators) and handed over once it is verified. ' +
    'Creating the integration, or changing its credentials or providerRestaurantId, makes it unverified and starts a verification at once; ' +
    'unverified ones are retried periodically, and POST .../check verifies on demand. THIRD_PARTY is always verified.',
  properties: {
    state: { type: 'string', enum: ['unverified', 'verified', 'failed'], description: 'unverified: no verdict yet (or the platform was unreachable); verified: accepted; failed: refused, or accepted for another restaurant (fix the credentials or providerRestaurantId with PUT).' },
    verifiedAt: { type: 'string', format: 'date-time', nullable: true, description: 'When the platform verified the current credentials; null unless verified.' },
    detail: { type: 'string', nullable: true, description: 'The last verdict in words (never a secret).', example: 'PLATFORM_A accepted the login (app key and restaurant secretKey) for restaurant 5f9a1b2c.' },
    fingerprint: { type: 'string', nullable: true, description: 'A keyed fingerprint of the credentials the last verdict was about (no secret can be derived from it).', example: 'x3Jq0w9cV1kP2mD7aZ4tQe' },
  },
};

function withVerification(record: JsonSchema): JsonSchema {
  const schema = record as { required?: string[]; properties?: Record<string, JsonSchema> };
  return { ...record, required: [...(schema.required ?? []), 'verification'], properties: { ...(schema.properties ?? {}), verification: { $ref: '#/components/schemas/IntegrationVerification' } } } as JsonSchema;
}

export function describeIntegrationSchemas(registry: PlatformRegistry): void {
  for (const key of Object.keys(INTEGRATION_SCHEMAS)) delete INTEGRATION_SCHEMAS[key];
  Object.assign(INTEGRATION_SCHEMAS, {
    IntegrationCreate: { ...integrationCreateBodySchema(registry), description: 'One platform\'s whole field set, told apart by `platform`.' },
    ...integrationCreateSchemas(registry),
    IntegrationUpdate: integrationUpdateBodySchema(registry),
    Integration: withVerification(integrationRecordSchema(registry)),
    IntegrationVerification: INTEGRATION_VERIFICATION_SCHEMA,
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
