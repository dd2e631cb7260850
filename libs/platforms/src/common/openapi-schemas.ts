import { COMMON_INTEGRATION_FIELDS, CredentialFieldDefinition, HEADER_SAFE_VALUE, maxLengthOf } from './platform-definition';
import { PlatformRegistry, RegisteredPlatform } from './platform-registry';

/** A JSON Schema object as OpenAPI 3.0 embeds it. */
export type JsonSchema = Record<string, unknown>;

function fieldSchemas(platform: RegisteredPlatform, forRecord: boolean): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const field of platform.fields) {
    properties[field.name] = {
      type: 'string',
      description: forRecord && field.secret ? `${field.description} Secret: shown as **** + its last 4 characters.` : field.description + (field.secret ? ' Secret: encrypted at rest, never returned in clear.' : ''),
      ...(forRecord ? {} : { minLength: 1, maxLength: maxLengthOf(field), ...patternOf(field) }),
      example: forRecord && field.secret ? '****' + (field.example ?? 'abcd').slice(-4) : field.example,
    };
  }
  return properties;
}

/** The field's own rule, else the header-safe one of a header-bound field (a field's own rule is the stricter). */
function patternOf(field: CredentialFieldDefinition): JsonSchema {
  const regex = field.pattern?.regex ?? (field.sentInHeader ? HEADER_SAFE_VALUE : undefined);
  return regex ? { pattern: regex.source } : {};
}

/** Create body of one platform: its whole field set, isActive and optional fields aside. */
export function integrationCreateSchema(platform: RegisteredPlatform): JsonSchema {
  return {
    type: 'object',
    title: `Create ${platform.wireCode} integration`,
    additionalProperties: false,
    required: ['platform', 'providerRestaurantId', ...platform.fields.filter((field) => !field.optional).map((field) => field.name)],
    properties: {
      platform: { type: 'string', enum: [platform.wireCode] },
      providerRestaurantId: { type: 'string', minLength: 1, maxLength: COMMON_INTEGRATION_FIELDS.providerRestaurantId.maxLength, description: COMMON_INTEGRATION_FIELDS.providerRestaurantId.description, example: 'store-1207' },
      isActive: { type: 'boolean', default: true, description: COMMON_INTEGRATION_FIELDS.isActive.description },
      ...fieldSchemas(platform, false),
    },
  };
}

/** Name of a platform's create body among the document's schemas (wire codes are valid names). */
export function integrationCreateSchemaName(platform: RegisteredPlatform): string {
  return `IntegrationCreate_${platform.wireCode}`;
}

/** The create bodies, one named schema per platform, for the document's components. */
export function integrationCreateSchemas(registry: PlatformRegistry): Record<string, JsonSchema> {
  return Object.fromEntries(registry.list().map((platform) => [integrationCreateSchemaName(platform), integrationCreateSchema(platform)]));
}

/**
 * Create body: one of the platforms' bodies, told apart by `platform`. A discriminator selects only
 * named schemas, so the bodies are references to integrationCreateSchemas' entries.
 */
export function integrationCreateBodySchema(registry: PlatformRegistry): JsonSchema {
  const ref = (platform: RegisteredPlatform) => `#/components/schemas/${integrationCreateSchemaName(platform)}`;
  return {
    oneOf: registry.list().map((platform) => ({ $ref: ref(platform) })),
    discriminator: { propertyName: 'platform', mapping: Object.fromEntries(registry.list().map((platform) => [platform.wireCode, ref(platform)])) },
  };
}

/** Update body: any subset of the integration's platform's fields (a body with only `password` is valid). */
export function integrationUpdateBodySchema(registry: PlatformRegistry): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    platform: { type: 'string', description: 'Optional; when sent it must be the integration\'s own platform.' },
    providerRestaurantId: { type: 'string', minLength: 1, maxLength: COMMON_INTEGRATION_FIELDS.providerRestaurantId.maxLength },
    isActive: { type: 'boolean' },
  };
  for (const platform of registry.list()) {
    for (const [name, schema] of Object.entries(fieldSchemas(platform, false))) {
      properties[name] ??= { ...schema, description: `${schema.description as string} (${registry.platformsWithField(name).join(', ')})` };
    }
  }
  return {
    type: 'object',
    additionalProperties: false,
    description:
      'Only the fields that change. Fields must belong to the integration\'s platform; a secret field that still holds a mask (****...) is refused with 422.',
    properties,
  };
}

/** The integration record as returned: clear identifiers, masked secrets, timestamps. */
export function integrationRecordSchema(registry: PlatformRegistry): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: { type: 'string', format: 'uuid' },
    platform: { type: 'string', enum: registry.list().map((platform) => platform.wireCode) },
    providerRestaurantId: { type: 'string' },
    isActive: { type: 'boolean' },
  };
  for (const platform of registry.list()) {
    for (const [name, schema] of Object.entries(fieldSchemas(platform, true))) {
      properties[name] ??= { ...schema, description: `${schema.description as string} Present for ${registry.platformsWithField(name).join(', ')}.` };
    }
  }
  properties.createdAt = { type: 'string', format: 'date-time' };
  properties.updatedAt = { type: 'string', format: 'date-time' };
  return { type: 'object', required: ['id', 'platform', 'providerRestaurantId', 'isActive', 'createdAt', 'updatedAt'], properties };
}
