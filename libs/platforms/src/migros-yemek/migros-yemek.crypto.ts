import { createCipheriv, createDecipheriv } from 'node:crypto';
import { PLATFORM_D_CIPHER, PlatformDCipherMode } from './migros-yemek.assumptions';

/** The key string's UTF-8 bytes, zero-padded or cut to 32 bytes (AJ, M-py, M-go). */
export function platformDKey(keyString: string): Buffer {
  const key = Buffer.alloc(PLATFORM_D_CIPHER.keyBytes, 0);
  Buffer.from(keyString, 'utf8').copy(key, 0, 0, PLATFORM_D_CIPHER.keyBytes);
  return key;
}

/**
 * JSON with a space after each `:` and `,` outside strings (`{"orderId": 1, "storeId": 2}`): what
 * Python's json.dumps writes (AJ, M-py) and the layout M-go writes for the platform's .NET decryptor.
 * Built from JSON.stringify's compact output, so escaping and number formatting are the standard ones.
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

function cipherArgs(mode: PlatformDCipherMode, keyString: string): [string, Buffer, Buffer | null] {
  return mode === 'CBC' ? ['aes-256-cbc', platformDKey(keyString), PLATFORM_D_CIPHER.cbcIv] : ['aes-256-ecb', platformDKey(keyString), null];
}

/** A request body as Migros takes it: the JSON encrypted in `mode` (PLATFORM_D_CIPHER), base64, in `{ value }`. */
export function encryptPlatformDBody(body: unknown, keyString: string, mode: PlatformDCipherMode = PLATFORM_D_CIPHER.defaultMode): { value: string } {
  const plaintext = PLATFORM_D_CIPHER.spacedJson ? spacedJson(body) : JSON.stringify(body);
  const cipher = createCipheriv(...cipherArgs(mode, keyString));
  return { value: Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64') };
}

/** The text of a `{ value }` encrypted in `mode`, or undefined when it does not decrypt with the key. */
export function decryptPlatformDValue(value: string, keyString: string, mode: PlatformDCipherMode = PLATFORM_D_CIPHER.defaultMode): string | undefined {
  try {
    const decipher = createDecipheriv(...cipherArgs(mode, keyString));
    return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The JSON inside a `{ value }` Migros (or an integrator) encrypted: tried in `preferred` mode, then in
 * the other. With a zero IV the first 16 bytes read alike in both modes and a wrong mode can pass the
 * padding check by chance, so a reading counts only when the whole text parses as JSON.
 */
export function openPlatformDValue(value: string, keyString: string, preferred: PlatformDCipherMode = PLATFORM_D_CIPHER.defaultMode): { json: unknown; mode: PlatformDCipherMode } | undefined {
  for (const mode of preferred === 'ECB' ? (['ECB', 'CBC'] as const) : (['CBC', 'ECB'] as const)) {
    const text = decryptPlatformDValue(value, keyString, mode);
    if (text === undefined) continue;
    try {
      return { json: JSON.parse(text), mode };
    } catch {
      // not this mode
    }
  }
  return undefined;
}

/** Whether a body is Migros' encrypted envelope: exactly `{ "value": "<string>" }`. */
export function isPlatformDEnvelope(body: unknown): body is { value: string } {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 1 && typeof (body as { value?: unknown }).value === 'string';
}

/** A cipher mode named by a setting or variable (`ECB` / `CBC`, any case), else undefined. */
export function platformDCipherMode(value: unknown): PlatformDCipherMode | undefined {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
  return upper === 'ECB' || upper === 'CBC' ? upper : undefined;
}
