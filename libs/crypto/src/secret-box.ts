import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EncryptionKey, EncryptionKeyError, parseEncryptionKeys } from './encryption-keys';

/** v1: sealed without associated data (legacy, still opened); v2: bound to associated data (the row and field it belongs to). */
const UNBOUND_VERSION = 'v1';
const BOUND_VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A ciphertext that cannot be opened: malformed, tampered with, or sealed under an unknown key. */
export class SecretDecryptionError extends Error {
  constructor(
    message: string,
    readonly keyId?: string,
  ) {
    super(message);
    this.name = 'SecretDecryptionError';
  }
}

interface ParsedCiphertext {
  version: typeof UNBOUND_VERSION | typeof BOUND_VERSION;
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

/**
 * What a stored secret is bound to, as associated data: a ciphertext opens only with the same
 * value, so it cannot be moved to another row or field (the database is not trusted to keep them
 * apart). JSON keeps the parts unambiguous.
 */
export const secretBinding = {
  /** A secret field of an integration (secretKey, password, apiKey, ...). */
  integrationSecret: (integrationId: string, field: string): string => JSON.stringify(['integration', integrationId.toLowerCase(), field]),
  /** The webhook signing secret of a restaurant account. */
  webhookSigningSecret: (restaurantId: string): string => JSON.stringify(['webhook-signing-secret', restaurantId]),
  /** A platform session token status-dispatcher keeps for an integration. */
  platformSession: (integrationId: string): string => JSON.stringify(['platform-session', integrationId.toLowerCase()]),
};

/**
 * AES-256-GCM for secrets at rest. A ciphertext is the text `<version>:<keyId>:<iv>:<tag>:<ciphertext>`
 * (base64 parts, random 12-byte IV), so it fits any text column or JSON document and names the key
 * that opens it: keys rotate by putting a new one first in the keyring, re-encrypting (see
 * `needsReencryption`), then dropping the old one. With `associatedData` (secretBinding) the
 * ciphertext is v2 and opens only with the same associated data; without, v1 (as before).
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keyring: EncryptionKey[]) {
    if (keyring.length === 0) throw new EncryptionKeyError('the keyring needs at least one key');
    this.keys = new Map(keyring.map((entry) => [entry.id, entry.key]));
    this.currentKeyId = keyring[0].id;
  }

  /** A box over `SECRETS_ENCRYPTION_KEYS` (or another variable in the same format). */
  static fromKeyList(raw: string | undefined, variable?: string): SecretBox {
    return new SecretBox(parseEncryptionKeys(raw, variable));
  }

  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  /** Seals `plaintext`; with `associatedData` (see secretBinding) it opens only with the same. */
  encrypt(plaintext: string, associatedData?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv, { authTagLength: TAG_BYTES });
    if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    const version = associatedData !== undefined ? BOUND_VERSION : UNBOUND_VERSION;
    return [version, this.currentKeyId, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
  }

  /**
   * Opens a ciphertext. A v2 one needs the associated data it was sealed with (else it fails
   * authentication: moved to another row or field). A v1 one was sealed without any and opens
   * whatever is given, so rows written before binding stay readable until re-encrypted.
   */
  decrypt(ciphertext: string, associatedData?: string): string {
    const parsed = parse(ciphertext);
    const key = this.keys.get(parsed.keyId);
    if (!key) throw new SecretDecryptionError(`no key "${parsed.keyId}" in the keyring`, parsed.keyId);
    if (parsed.version === BOUND_VERSION && associatedData === undefined) {
      throw new SecretDecryptionError(`ciphertext under key "${parsed.keyId}" is bound to associated data and none was given`, parsed.keyId);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, parsed.iv, { authTagLength: TAG_BYTES });
      if (parsed.version === BOUND_VERSION) decipher.setAAD(Buffer.from(associatedData!, 'utf8'));
      decipher.setAuthTag(parsed.tag);
      return Buffer.concat([decipher.update(parsed.body), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptionError(`ciphertext under key "${parsed.keyId}" failed authentication (wrong key, tampered with, or moved from another row or field)`, parsed.keyId);
    }
  }

  /** Id of the key a ciphertext was sealed with (without opening it). */
  keyIdOf(ciphertext: string): string {
    return parse(ciphertext).keyId;
  }

  /**
   * True when the ciphertext was not sealed with the current (first) key, or, when the caller binds
   * it (`associatedData`), when it is a legacy unbound (v1) one.
   */
  needsReencryption(ciphertext: string, associatedData?: string): boolean {
    const parsed = parse(ciphertext);
    return parsed.keyId !== this.currentKeyId || (associatedData !== undefined && parsed.version !== BOUND_VERSION);
  }

  /** The same secret sealed under the current key (a new IV even when already current), bound to `associatedData` when given. */
  reencrypt(ciphertext: string, associatedData?: string): string {
    return this.encrypt(this.decrypt(ciphertext, associatedData), associatedData);
  }
}

/** Whether a string has the shape of a SecretBox ciphertext (not whether it opens). */
export function isCiphertext(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    parse(value);
    return true;
  } catch {
    return false;
  }
}

function parse(ciphertext: string): ParsedCiphertext {
  const parts = typeof ciphertext === 'string' ? ciphertext.split(':') : [];
  if (parts.length !== 5 || (parts[0] !== UNBOUND_VERSION && parts[0] !== BOUND_VERSION)) throw new SecretDecryptionError('not a v1 or v2 ciphertext');
  const [version, keyId, iv, tag, body] = parts;
  const decoded = { version: version as ParsedCiphertext['version'], keyId, iv: Buffer.from(iv, 'base64'), tag: Buffer.from(tag, 'base64'), body: Buffer.from(body, 'base64') };
  if (keyId === '' || decoded.iv.length !== IV_BYTES || decoded.tag.length !== TAG_BYTES) {
    throw new SecretDecryptionError('malformed ciphertext', keyId || undefined);
  }
  return decoded;
}
