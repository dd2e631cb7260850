import { randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A webhook signing secret in the Standard Webhooks form, `whsec_` + base64 of 32 random bytes.
 * X-Service-Signature is keyed with this whole string; the Standard Webhooks signature with the
 * decoded bytes after the prefix (see webhookSecretKeyBytes).
 */
export function generateWebhookSigningSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The key bytes of a `whsec_` secret for Standard Webhooks signing (the secret's UTF-8 bytes otherwise). */
export function webhookSecretKeyBytes(secret: string): Buffer {
  return secret.startsWith(WEBHOOK_SECRET_PREFIX) ? Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}
