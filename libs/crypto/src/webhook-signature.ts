import { createHmac } from 'node:crypto';
import { webhookSecretKeyBytes } from './webhook-secret';

/**
 * X-Service-Signature (decisions.md, "Webhooks"): lowercase hex HMAC-SHA256 of the exact bytes sent,
 * keyed with the signing secret string as the panel shows it (`whsec_...` included).
 */
export function serviceSignature(secret: string, body: string | Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed
 * with the decoded bytes after `whsec_`. `timestampSeconds` is the `webhook-timestamp` header value.
 */
export function standardWebhookSignature(secret: string, webhookId: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', webhookSecretKeyBytes(secret));
  mac.update(`${webhookId}.${timestampSeconds}.`, 'utf8');
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}
