import { serviceSignature, standardWebhookSignature } from '@courier/crypto';

export const USER_AGENT = 'Courier-Webhooks/1.0 (+webhook-sender)';

export interface WebhookHeaderInput {
  webhookId: string;
  attempt: number;
  /** The exact bytes sent (the stored body). */
  body: Buffer;
  /** The account's signing secret in clear (`whsec_...`), or null when signing is off. */
  signingSecret: string | null;
  /** WEBHOOK_SIGNATURE_HEADER (default X-Service-Signature). */
  signatureHeader: string;
  now: Date;
  /** The correlation id of the change that caused the webhook (the same on every attempt), if known. */
  correlationId?: string | null;
}

/**
 * Headers of one attempt (decisions.md, "Webhooks"): the ids stay the same on every attempt, the
 * Standard Webhooks timestamp is the attempt's (receivers reject stale ones as replays), and both
 * signatures are present only when the account has a signing secret.
 */
export function webhookHeaders(input: WebhookHeaderInput): Record<string, string> {
  const timestamp = Math.floor(input.now.getTime() / 1000);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Webhook-Id': input.webhookId,
    'X-Webhook-Attempt': String(input.attempt),
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(timestamp),
  };
  if (input.correlationId) headers['X-Correlation-Id'] = input.correlationId;
  if (input.signingSecret !== null) {
    headers[input.signatureHeader] = serviceSignature(input.signingSecret, input.body);
    headers['webhook-signature'] = standardWebhookSignature(input.signingSecret, input.webhookId, timestamp, input.body);
  }
  return headers;
}
