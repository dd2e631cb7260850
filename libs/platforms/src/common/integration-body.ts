import type { FieldError } from '@courier/contracts';
import { normaliseText } from '@courier/domain';
import { COMMON_INTEGRATION_FIELDS, headerUnsafeMessage, isHeaderSafe, maxLengthOf } from './platform-definition';
import { PlatformRegistry, RegisteredPlatform } from './platform-registry';

/** An integration body that passed the registry's rules, split into clear and secret fields. */
export interface IntegrationInput {
  platform: RegisteredPlatform;
  providerRestaurantId?: string;
  isActive?: boolean;
  /** Non-secret credential fields given (chainCode, username, ...). */
  settings: Record<string, string>;
  /** Secret credential fields given, in clear: encrypt before storing, never log. */
  secrets: Record<string, string>;
}

export type IntegrationValidation = { ok: true; input: IntegrationInput } | { ok: false; errors: FieldError[] };

export interface IntegrationValidationOptions {
  /** A further rule for secret values (e.g. refusing a mask sent back): the error message, or undefined. */
  refuseSecret?: (value: string) => string | undefined;
}

/** Fields of the record as returned that a client cannot set. */
const READ_ONLY_FIELDS = ['id', 'createdAt', 'updatedAt'];

// NUL cannot be stored in PostgreSQL text; other control characters have no place in credentials.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(body: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, key);
}

/**
 * An id (providerRestaurantId, a store, supplier or chain code): NFC and trimmed, refused with a
 * control, bidirectional or zero-width character (the suite's identifier rule). Secrets are kept
 * byte for byte: the platform compares them as sent.
 */
function checkIdentifier(field: string, value: unknown, maxLength: number, errors: FieldError[]): string | undefined {
  if (typeof value !== 'string') {
    errors.push({ field, message: 'must be a string' });
    return undefined;
  }
  const normalised = normaliseText(value);
  if (!normalised.ok) {
    errors.push({ field, message: normalised.message });
    return undefined;
  }
  return checkString(field, normalised.value, maxLength, errors) ? normalised.value : undefined;
}

function checkString(field: string, value: unknown, maxLength: number, errors: FieldError[]): value is string {
  if (typeof value !== 'string') {
    errors.push({ field, message: 'must be a string' });
    return false;
  }
  if (value.trim() === '') {
    errors.push({ field, message: 'must not be empty' });
    return false;
  }
  if (value.length > maxLength) {
    errors.push({ field, message: `must be at most ${maxLength} characters` });
    return false;
  }
  if (CONTROL_CHARACTERS.test(value)) {
    errors.push({ field, message: 'must not contain control characters' });
    return false;
  }
  return true;
}

/**
 * Checks the fields of a body against one platform: known fields only (a field of another platform
 * is named as such), well-typed values, and — on create — every field of the platform present
 * (optional ones aside).
 */
function checkFields(
  registry: PlatformRegistry,
  platform: RegisteredPlatform,
  body: Record<string, unknown>,
  mode: 'create' | 'update',
  options: IntegrationValidationOptions,
): IntegrationValidation {
  const errors: FieldError[] = [];
  const input: IntegrationInput = { platform, settings: {}, secrets: {} };

  for (const key of Object.keys(body)) {
    if (key === 'platform' || key === 'providerRestaurantId' || key === 'isActive') continue;
    if (platform.fields.some((field) => field.name === key)) continue;
    if (READ_ONLY_FIELDS.includes(key)) {
      errors.push({ field: key, message: 'is read-only' });
      continue;
    }
    const owners = registry.platformsWithField(key);
    errors.push({ field: key, message: owners.length > 0 ? `is not a field of ${platform.wireCode} (it belongs to ${owners.join(', ')})` : 'is not allowed' });
  }

  if (has(body, 'providerRestaurantId')) {
    const id = checkIdentifier('providerRestaurantId', body.providerRestaurantId, COMMON_INTEGRATION_FIELDS.providerRestaurantId.maxLength, errors);
    if (id !== undefined) input.providerRestaurantId = id;
  } else if (mode === 'create') {
    errors.push({ field: 'providerRestaurantId', message: 'is required' });
  }

  if (has(body, 'isActive')) {
    if (typeof body.isActive === 'boolean') input.isActive = body.isActive;
    else errors.push({ field: 'isActive', message: 'must be a boolean' });
  }

  for (const field of platform.fields) {
    if (!has(body, field.name)) {
      if (mode === 'create' && !field.optional) errors.push({ field: field.name, message: `is required for ${platform.wireCode}` });
      continue;
    }
    const value = field.secret ? body[field.name] : checkIdentifier(field.name, body[field.name], maxLengthOf(field), errors);
    if (value === undefined || !checkString(field.name, value, maxLengthOf(field), errors)) continue;
    if (field.pattern && !field.pattern.regex.test(value)) {
      errors.push({ field: field.name, message: field.pattern.message });
      continue;
    }
    // A value the header cannot carry would make every call of the integration fail before it is sent.
    if (field.sentInHeader && !isHeaderSafe(value)) {
      errors.push({ field: field.name, message: headerUnsafeMessage(field.sentInHeader) });
      continue;
    }
    const refusal = field.secret ? options.refuseSecret?.(value) : undefined;
    if (refusal) errors.push({ field: field.name, message: refusal });
    else (field.secret ? input.secrets : input.settings)[field.name] = value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, input };
}

/** Validates a create body: `platform` is a registered wire code and the body holds exactly its field set. */
export function validateIntegrationCreate(registry: PlatformRegistry, body: unknown, options: IntegrationValidationOptions = {}): IntegrationValidation {
  if (!isPlainObject(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  if (!has(body, 'platform')) {
    return { ok: false, errors: [{ field: 'platform', message: `is required (one of ${registry.list().map((p) => p.wireCode).join(', ')})` }] };
  }
  const platform = typeof body.platform === 'string' ? registry.byWireCode(body.platform) : undefined;
  if (!platform) {
    return { ok: false, errors: [{ field: 'platform', message: `must be one of ${registry.list().map((p) => p.wireCode).join(', ')}` }] };
  }
  return checkFields(registry, platform, body, 'create', options);
}

/**
 * Validates a partial update of an integration of `platformCode` (neutral): only fields of that
 * platform, each optional; `platform`, when sent, must be the integration's own.
 */
export function validateIntegrationUpdate(
  registry: PlatformRegistry,
  platformCode: string,
  body: unknown,
  options: IntegrationValidationOptions = {},
): IntegrationValidation {
  if (body === undefined || body === null) body = {};
  if (!isPlainObject(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const platform = registry.byCode(platformCode);
  if (!platform) return { ok: false, errors: [{ field: 'platform', message: `${platformCode} is no longer a registered platform` }] };
  const result = checkFields(registry, platform, body, 'update', options);
  if (has(body, 'platform') && body.platform !== platform.wireCode) {
    const errors = [{ field: 'platform', message: `cannot be changed (the integration is ${platform.wireCode})` }, ...(result.ok ? [] : result.errors)];
    return { ok: false, errors };
  }
  return result;
}
