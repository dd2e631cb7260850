import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EncryptionKey, EncryptionKeyError, parseEncryptionKeys } from './encryption-keys';

const FORMAT_VERSION = 'v1';
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
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

/**
 * AES-256-GCM for secrets at rest. A ciphertext is the text `v1:<keyId>:<iv>:<tag>:<ciphertext>`
 * (base64 parts, random 12-byte IV), so it fits any text column or JSON document and names the key
 * that opens it: keys rotate by putting a new one first in the keyring, re-encrypting (see
 * `needsReencryption`), then dropping the old one.
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

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv, { authTagLength: TAG_BYTES });
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT_VERSION, this.currentKeyId, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
  }

  decrypt(ciphertext: string): string {
    const parsed = parse(ciphertext);
    const key = this.keys.get(parsed.keyId);
    if (!key) throw new SecretDecryptionError(`no key "${parsed.keyId}" in the keyring`, parsed.keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, parsed.iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(parsed.tag);
      return Buffer.concat([decipher.update(parsed.body), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptionError(`ciphertext under key "${parsed.keyId}" failed authentication`, parsed.keyId);
    }
  }

  /** Id of the key a ciphertext was sealed with (without opening it). */
  keyIdOf(ciphertext: string): string {
    return parse(ciphertext).keyId;
  }

  /** True when the ciphertext was not sealed with the current (first) key. */
  needsReencryption(ciphertext: string): boolean {
    return parse(ciphertext).keyId !== this.currentKeyId;
  }

  /** The same secret sealed under the current key (a new IV even when already current). */
  reencrypt(ciphertext: string): string {
    return this.encrypt(this.decrypt(ciphertext));
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
  if (parts.length !== 5 || parts[0] !== FORMAT_VERSION) throw new SecretDecryptionError('not a v1 ciphertext');
  const [, keyId, iv, tag, body] = parts;
  const decoded = { keyId, iv: Buffer.from(iv, 'base64'), tag: Buffer.from(tag, 'base64'), body: Buffer.from(body, 'base64') };
  if (keyId === '' || decoded.iv.length !== IV_BYTES || decoded.tag.length !== TAG_BYTES) {
    throw new SecretDecryptionError('malformed ciphertext', keyId || undefined);
  }
  return decoded;
}
