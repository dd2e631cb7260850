import { createCipheriv, createDecipheriv } from 'node:crypto';
import { PLATFORM_D_CIPHER } from './platform-d.assumptions';

/** The key string's UTF-8 bytes, zero-padded or cut to 32 bytes (M-go `normalizeKey`). */
export function platformDKey(keyString: string): Buffer {
  const key = Buffer.alloc(PLATFORM_D_CIPHER.keyBytes, 0);
  Buffer.from(keyString, 'utf8').copy(key, 0, 0, PLATFORM_D_CIPHER.keyBytes);
  return key;
}

/**
 * JSON with a space after each `:` and `,` outside strings (`{"orderId": 1, "storeId": 2}`), the
 * layout M-go writes for the platform's .NET decryptor. Built from JSON.stringify's compact output,
 * so escaping and number formatting are the standard ones.
 */
export function spacedJson(value: unknown): string {
  const compact = JSON.stringify(value);
  let out = '';
  let inString = false;
  for (let index = 0; index < compact.length; index += 1) {
    const char = compact[index];
    out += char;
    if (inString) {
      if (char === '\\') out += compact[++index];
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === ':' || char === ',') out += ' ';
  }
  return out;
}

/** A request body as Migros takes it: the JSON encrypted (PLATFORM_D_CIPHER), base64, in `{ value }`. */
export function encryptPlatformDBody(body: unknown, keyString: string): { value: string } {
  const plaintext = PLATFORM_D_CIPHER.spacedJson ? spacedJson(body) : JSON.stringify(body);
  const cipher = createCipheriv(PLATFORM_D_CIPHER.algorithm, platformDKey(keyString), PLATFORM_D_CIPHER.iv);
  return { value: Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64') };
}

/** The text of a `{ value }` Migros encrypted, or undefined when it does not decrypt with the key. */
export function decryptPlatformDValue(value: string, keyString: string): string | undefined {
  try {
    const decipher = createDecipheriv(PLATFORM_D_CIPHER.algorithm, platformDKey(keyString), PLATFORM_D_CIPHER.iv);
    return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
