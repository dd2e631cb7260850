import { randomBytes } from 'node:crypto';

/** One AES-256 key of the keyring, addressed by the id stored beside each ciphertext. */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export const ENCRYPTION_KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]|[A-Za-z0-9_-])+={0,2}$/;

/** A malformed key list. The message names the variable and the entry, never the key material. */
export class EncryptionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionKeyError';
  }
}

/**
 * Parses `keyId:base64key,keyId:base64key,...` (standard or url-safe base64 of 32 bytes). The first
 * entry encrypts; every entry decrypts, so a new key is put first and old ones stay until every
 * ciphertext was re-encrypted.
 */
export function parseEncryptionKeys(raw: string | undefined, variable = 'SECRETS_ENCRYPTION_KEYS'): EncryptionKey[] {
  if (raw === undefined || raw.trim() === '') {
    throw new EncryptionKeyError(`${variable} is required: a comma-separated list of keyId:base64key entries (32-byte keys, the first one encrypts)`);
  }
  const keys: EncryptionKey[] = [];
  const entries = raw.split(',').map((entry) => entry.trim());
  entries.forEach((entry, index) => {
    const position = `entry ${index + 1}`;
    if (entry === '') throw new EncryptionKeyError(`${variable}: ${position} is empty`);
    const separator = entry.indexOf(':');
    if (separator < 0) throw new EncryptionKeyError(`${variable}: ${position} must have the form keyId:base64key`);
    const id = entry.slice(0, separator).trim();
    const encoded = entry.slice(separator + 1).trim();
    if (!KEY_ID.test(id)) {
      throw new EncryptionKeyError(`${variable}: ${position} has an invalid key id (1-32 letters, digits, "_" or "-")`);
    }
    if (keys.some((key) => key.id === id)) throw new EncryptionKeyError(`${variable}: key id "${id}" appears twice`);
    if (!BASE64.test(encoded)) throw new EncryptionKeyError(`${variable}: key "${id}" is not base64`);
    const key = Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length !== ENCRYPTION_KEY_BYTES) {
      throw new EncryptionKeyError(`${variable}: key "${id}" must decode to ${ENCRYPTION_KEY_BYTES} bytes (got ${key.length})`);
    }
    keys.push({ id, key });
  });
  return keys;
}

/** A fresh `keyId:base64key` entry (for launchers, tests and the README's instructions). */
export function generateEncryptionKeyEntry(id: string): string {
  if (!KEY_ID.test(id)) throw new EncryptionKeyError(`invalid key id "${id}"`);
  return `${id}:${randomBytes(ENCRYPTION_KEY_BYTES).toString('base64')}`;
}
