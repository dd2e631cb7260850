import { verifyHmacJwt } from '@courier/crypto';
import { PLATFORM_B_PLUGIN_JWT_CLOCK_SKEW_MS, PLATFORM_B_PLUGIN_SERVICE_CLAIM } from './platform-b.assumptions';

export type PlatformBPluginAuth =
  | { ok: true }
  | { ok: false; reason: 'not_configured' | 'missing' | 'malformed' | 'unsupported_alg' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'wrong_service' };

/**
 * The middleware's `Authorization: Bearer <JWT>` on a call to our plugin: HMAC-signed (HS256/384/512)
 * with the plugin secret, claim `service: "middleware"`, `exp` enforced when present. Never a
 * static comparison: the token changes, the secret does not travel.
 */
export function checkPlatformBPluginAuthorization(authorization: unknown, secret: string | undefined, now = Date.now()): PlatformBPluginAuth {
  if (!secret) return { ok: false, reason: 'not_configured' };
  const token = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (!token) return { ok: false, reason: 'missing' };
  const verified = verifyHmacJwt(token, secret, { now, clockSkewMs: PLATFORM_B_PLUGIN_JWT_CLOCK_SKEW_MS });
  if (!verified.ok) return verified;
  return verified.claims.service === PLATFORM_B_PLUGIN_SERVICE_CLAIM ? { ok: true } : { ok: false, reason: 'wrong_service' };
}
