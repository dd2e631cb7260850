import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted (UTF-16 code units) and no whitespace: RFC 8785 (JCS) for the
 * values JSON.parse produces. Two bodies that differ only in key order or spacing are the same
 * payload for idempotency. Callers bound the nesting depth first.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

/** SHA-256 hex of the canonical JSON: what "the same payload" means. */
export function payloadHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
