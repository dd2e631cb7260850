/**
 * Secrets are never logged: every property whose name is a secret field or a credential header is
 * censored wherever it appears in a logged object, down to three levels (`apiKey`, `x.apiKey`,
 * `x.y.apiKey`, e.g. `req.headers.authorization` or `items[0].token`), in the object passed to a
 * log call and in a child logger's bindings.
 *
 * A key lookup per property instead of pino's wildcard paths (`*.x`, `*.*.x`), which were matched
 * against every line at a real cost to intake's request path (docs/benchmarks.md). Objects are never
 * changed: only the objects on the way to a secret are copied (so an Error stays an Error).
 */
const SECRET_FIELDS = [
  'password',
  'secretKey',
  'apiKey',
  'apiSecret',
  'api_secret',
  'signingSecret',
  'secret',
  'token',
  'accessToken',
  'appSecretKey',
  'restaurantSecretKey',
  'authorization',
  'adminToken',
  'internalApiKey',
];

/** Credential headers (Node gives header names in lower case). */
const HEADERS = ['authorization', 'x-api-key', 'x-api-secret', 'x-internal-api-key', 'x-admin-token', 'cookie', 'set-cookie', 'token'];

/** Every property name whose value is censored. */
export const SECRET_KEYS: ReadonlySet<string> = new Set([...SECRET_FIELDS, ...HEADERS]);

export const REDACTED = '[REDACTED]';

/** How many levels of a logged object are searched: 1 is the object's own properties. */
export const REDACT_DEPTH = 3;

type Bag = Record<string, unknown>;

/**
 * `value` with every property named in SECRET_KEYS, down to REDACT_DEPTH levels, replaced by
 * REDACTED. Returns `value` itself when it holds no secret. Properties named in `skip` are left
 * out at the top level only (the values a serializer replaces by a fixed set of harmless fields).
 */
export function redactSecrets<T>(value: T, skip?: ReadonlySet<string>): T {
  if (value === null || typeof value !== 'object') return value;
  return censor(value as unknown as object, 1, skip) as unknown as T;
}

function censor(value: object, depth: number, skip?: ReadonlySet<string>): object {
  if (Array.isArray(value)) {
    // An index is a level too: `items[0].token` is three levels down.
    if (depth >= REDACT_DEPTH) return value;
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (item === null || typeof item !== 'object') continue;
      const censored = censor(item, depth + 1);
      if (censored !== item) (copy ??= value.slice())[index] = censored;
    }
    return copy ?? value;
  }
  if (!searchable(value)) return value;
  let copy: Bag | undefined;
  const bag = value as Bag;
  for (const key in bag) {
    if (!Object.prototype.hasOwnProperty.call(bag, key) || skip?.has(key)) continue;
    const item = bag[key];
    if (item === undefined) continue;
    if (SECRET_KEYS.has(key)) {
      copy ??= copyOf(bag);
      define(copy, key, REDACTED);
    } else if (depth < REDACT_DEPTH && item !== null && typeof item === 'object') {
      const censored = censor(item, depth + 1);
      if (censored !== item) {
        copy ??= copyOf(bag);
        define(copy, key, censored);
      }
    }
  }
  return copy ?? value;
}

/** Values JSON output does not take apart by property (and byte arrays, which have a key per byte). */
function searchable(value: object): boolean {
  return !(ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp || value instanceof Map || value instanceof Set);
}

function copyOf(value: Bag): Bag {
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype === Object.prototype || prototype === null) return { ...value };
  // A class instance or an Error: same prototype, own properties (message and stack included).
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Object.keys(descriptors)) {
    const descriptor = descriptors[key];
    // An own accessor is read on the original: since Node 22 an Error's stack is an own accessor
    // over the original's internal slot, and a copied accessor would read undefined.
    if (descriptor.get) descriptors[key] = { value: readOwn(value, key), enumerable: descriptor.enumerable, writable: true };
    descriptors[key].configurable = true;
  }
  return Object.create(prototype, descriptors) as Bag;
}

function readOwn(value: Bag, key: string): unknown {
  try {
    return value[key];
  } catch {
    return undefined;
  }
}

function define(target: Bag, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
