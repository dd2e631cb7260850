import { createHmac, timingSafeEqual } from 'node:crypto';

/** The HMAC algorithms a shared-secret JWT may name, with their hashes. Nothing else is verified. */
const HMAC_ALGORITHMS = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

export type HmacJwtAlgorithm = keyof typeof HMAC_ALGORITHMS;

export type HmacJwtCheck =
  | { ok: true; algorithm: HmacJwtAlgorithm; claims: Record<string, unknown> }
  | { ok: false; reason: 'malformed' | 'unsupported_alg' | 'bad_signature' | 'expired' | 'not_yet_valid' };

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function decodeObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies a compact JWS signed with a shared secret (HS256/384/512): the header's `alg` must be
 * one of those (`none` and asymmetric algorithms are refused: a token must not choose how it is
 * checked), the signature must match in constant time, and `exp` / `nbf` are enforced when present
 * (seconds, RFC 7519) with `clockSkewMs` of tolerance. Claims beyond those are the caller's.
 */
export function verifyHmacJwt(token: string, secret: string, options: { now?: number; clockSkewMs?: number } = {}): HmacJwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => SEGMENT.test(part)) || token.length > 8192) return { ok: false, reason: 'malformed' };
  const [encodedHeader, encodedClaims, encodedSignature] = parts;
  const header = decodeObject(encodedHeader);
  const claims = decodeObject(encodedClaims);
  if (!header || !claims) return { ok: false, reason: 'malformed' };
  const algorithm = header.alg;
  if (typeof algorithm !== 'string' || !Object.hasOwn(HMAC_ALGORITHMS, algorithm)) return { ok: false, reason: 'unsupported_alg' };
  const expected = createHmac(HMAC_ALGORITHMS[algorithm as HmacJwtAlgorithm], secret).update(`${encodedHeader}.${encodedClaims}`).digest();
  const presented = Buffer.from(encodedSignature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { ok: false, reason: 'bad_signature' };
  const now = options.now ?? Date.now();
  const skew = options.clockSkewMs ?? 0;
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp * 1000 + skew <= now)) return { ok: false, reason: 'expired' };
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf * 1000 - skew > now)) return { ok: false, reason: 'not_yet_valid' };
  return { ok: true, algorithm: algorithm as HmacJwtAlgorithm, claims };
}
