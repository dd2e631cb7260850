import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const MIN_TOKEN_BYTES = 32;

/**
 * A random credential: `prefix` + base64url of `bytes` random bytes (at least 32, i.e. 256 bits).
 * The prefix (e.g. `cik_`) tells people and secret scanners what a leaked string is.
 */
export function generateToken(bytes = MIN_TOKEN_BYTES, prefix = ''): string {
  if (!Number.isInteger(bytes) || bytes < MIN_TOKEN_BYTES) throw new RangeError(`a token needs at least ${MIN_TOKEN_BYTES} random bytes`);
  return prefix + randomBytes(bytes).toString('base64url');
}

/**
 * The stored form of an API key or secret: SHA-256, hex. A slow password hash (bcrypt, scrypt)
 * protects low-entropy human passwords against guessing; our credentials are >= 256-bit random
 * tokens, which no amount of guessing finds, so a fast hash is enough — and being deterministic,
 * the hash of a presented API key can be looked up by index.
 */
export function hashCredential(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Compares two strings in time independent of where they differ. Both are hashed first, so the
 * comparison also takes the same time whatever their lengths.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(String(a), 'utf8').digest();
  const right = createHash('sha256').update(String(b), 'utf8').digest();
  return timingSafeEqual(left, right);
}
