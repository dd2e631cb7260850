import { errors, jwtVerify } from 'jose';
import { PLATFORM_B_PLUGIN_JWT_ALGORITHMS, PLATFORM_B_PLUGIN_JWT_CLOCK_SKEW_MS, PLATFORM_B_PLUGIN_SERVICE_CLAIM } from './yemeksepeti.assumptions';

export type PlatformBPluginAuthFailure = 'not_configured' | 'missing' | 'malformed' | 'unsupported_alg' | 'unsupported_crit' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'wrong_service';
export type PlatformBPluginAuth = { ok: true } | { ok: false; reason: PlatformBPluginAuthFailure };

/** Why jose refused the token, in the reasons the guard logs (never the token). */
function failureOf(error: unknown): PlatformBPluginAuthFailure {
  if (error instanceof errors.JOSEAlgNotAllowed) return 'unsupported_alg';
  // RFC 7515 4.1.11: a `crit` naming an extension the recipient does not understand makes the JWS invalid.
  if (error instanceof errors.JOSENotSupported) return 'unsupported_crit';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) return error.claim === 'nbf' ? 'not_yet_valid' : error.claim === 'exp' ? 'expired' : 'malformed';
  return 'malformed';
}

/**
 * The middleware's `Authorization: Bearer <JWT>` on a call to our plugin, verified by jose: HMAC
 * (HS256/384/512 only) with the plugin secret, claim `service: "middleware"`, `exp` and `nbf`
 * enforced when present (B: `exp` optional), an unknown `crit` refused. Never a static comparison:
 * the token changes, the secret does not travel.
 */
export async function checkPlatformBPluginAuthorization(authorization: unknown, secret: string | undefined, now = Date.now()): Promise<PlatformBPluginAuth> {
  if (!secret) return { ok: false, reason: 'not_configured' };
  const token = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (!token) return { ok: false, reason: 'missing' };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: [...PLATFORM_B_PLUGIN_JWT_ALGORITHMS],
      currentDate: new Date(now),
      clockTolerance: Math.round(PLATFORM_B_PLUGIN_JWT_CLOCK_SKEW_MS / 1000),
    });
    return payload.service === PLATFORM_B_PLUGIN_SERVICE_CLAIM ? { ok: true } : { ok: false, reason: 'wrong_service' };
  } catch (error) {
    return { ok: false, reason: failureOf(error) };
  }
}
