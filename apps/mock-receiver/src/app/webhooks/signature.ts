import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** Outcome of checking one signature scheme on one request. */
export type VerdictState = 'valid' | 'invalid' | 'missing' | 'not-checked';

export interface SignatureVerdict {
  state: VerdictState;
  detail: string;
}

export interface SignatureVerdicts {
  /** `X-Service-Signature`: hex HMAC-SHA256 of the raw body keyed with the secret string. */
  serviceSignature: SignatureVerdict;
  /** Standard Webhooks: `webhook-signature` over `id.timestamp.body`, key = decoded `whsec_` secret. */
  standardWebhooks: SignatureVerdict;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

export const SERVICE_SIGNATURE_HEADER = 'x-service-signature';
/** During a rotation's grace period: the new secret's hex signature (X-Service-Signature carries the previous secret's). */
export const NEW_SERVICE_SIGNATURE_HEADER = 'x-service-signature-new';

const WHSEC_PREFIX = 'whsec_';

export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Lowercase hex HMAC-SHA256 of `body` keyed with the UTF-8 bytes of `secret`. */
export function serviceSignature(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Key bytes for the Standard Webhooks scheme: the secret must have the `whsec_` + base64 form
 * (decisions.md, Webhooks); anything else cannot be used for it.
 */
export function standardWebhooksKey(secret: string): Uint8Array | undefined {
  if (!secret.startsWith(WHSEC_PREFIX)) return undefined;
  const encoded = secret.slice(WHSEC_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? new Uint8Array(key) : undefined;
}

/**
 * `header` is X-Service-Signature; `newHeader` X-Service-Signature-New, which the sender adds only
 * during a secret rotation's grace period (X-Service-Signature then stays the previous secret's): a
 * receiver holding either secret verifies.
 */
export function verifyServiceSignature(body: Buffer, header: string | undefined, secret: string, newHeader?: string): SignatureVerdict {
  const presented = header?.trim().toLowerCase();
  if (!secret) {
    return { state: 'not-checked', detail: presented ? 'present; no WEBHOOK_SECRET configured' : 'absent; no WEBHOOK_SECRET configured' };
  }
  if (!presented) return { state: 'missing', detail: 'X-Service-Signature header is missing' };
  if (!/^[0-9a-f]{64}$/.test(presented)) return { state: 'invalid', detail: 'X-Service-Signature is not 64 hex characters' };
  const expected = Buffer.from(serviceSignature(body, secret), 'hex');
  if (timingSafeEqual(expected, Buffer.from(presented, 'hex'))) return { state: 'valid', detail: 'HMAC-SHA256 matches' };
  const rotated = newHeader?.trim().toLowerCase();
  if (rotated && /^[0-9a-f]{64}$/.test(rotated) && timingSafeEqual(expected, Buffer.from(rotated, 'hex'))) {
    return { state: 'valid', detail: 'HMAC-SHA256 matches X-Service-Signature-New (secret rotation grace period)' };
  }
  return { state: 'invalid', detail: 'HMAC-SHA256 does not match' };
}

export function verifyStandardWebhooksSignature(body: Buffer, headers: HeaderBag, secret: string): SignatureVerdict {
  const id = headerValue(headers, 'webhook-id');
  const timestamp = headerValue(headers, 'webhook-timestamp');
  const signature = headerValue(headers, 'webhook-signature');
  const present = Boolean(id || timestamp || signature);
  if (!secret) {
    return { state: 'not-checked', detail: present ? 'present; no WEBHOOK_SECRET configured' : 'absent; no WEBHOOK_SECRET configured' };
  }
  const key = standardWebhooksKey(secret);
  if (!key) {
    return { state: 'not-checked', detail: `${present ? 'present' : 'absent'}; WEBHOOK_SECRET is not in the whsec_ + base64 form` };
  }
  if (!present) return { state: 'missing', detail: 'webhook-id, webhook-timestamp and webhook-signature are required with a whsec_ secret' };
  if (!id || !timestamp || !signature) return { state: 'invalid', detail: 'webhook-id, webhook-timestamp and webhook-signature must all be present' };
  try {
    // The library compares in constant time, accepts any one of space-delimited signatures (a rotation's
    // grace period carries two) and refuses timestamps more than 5 minutes off (replays).
    new Webhook(key, { format: 'raw' }).verify(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, { jsonParse: false });
    return { state: 'valid', detail: 'v1 signature matches' };
  } catch (error) {
    const reason = error instanceof WebhookVerificationError ? error.message : 'malformed signature headers';
    return { state: 'invalid', detail: reason };
  }
}

export function verifySignatures(body: Buffer, headers: HeaderBag, secret: string): SignatureVerdicts {
  return {
    serviceSignature: verifyServiceSignature(body, headerValue(headers, SERVICE_SIGNATURE_HEADER), secret, headerValue(headers, NEW_SERVICE_SIGNATURE_HEADER)),
    standardWebhooks: verifyStandardWebhooksSignature(body, headers, secret),
  };
}

/**
 * With a secret configured a webhook is accepted only with a valid X-Service-Signature. With a
 * secret in the `whsec_` form the Standard Webhooks signature is required as well: were it checked
 * only when present, dropping the `webhook-*` headers would switch its replay check (the signed
 * timestamp) off.
 */
export function signatureRefusal(verdicts: SignatureVerdicts, secret: string): string | undefined {
  if (!secret) return undefined;
  const { serviceSignature: service, standardWebhooks: standard } = verdicts;
  if (service.state !== 'valid') return `X-Service-Signature: ${service.detail}`;
  if (standard.state === 'invalid' || standard.state === 'missing') return `Standard Webhooks signature: ${standard.detail}`;
  return undefined;
}
