import { serviceSignature, standardWebhookSignature } from '@courier/crypto';

export const USER_AGENT = 'Courier-Webhooks/1.0 (+webhook-sender)';

export interface WebhookHeaderInput {
  webhookId: string;
  attempt: number;
  /** The exact bytes sent (the stored body). */
  body: Buffer;
  /** The account's signing secret in clear (`whsec_...`), or null when signing is off. */
  signingSecret: string | null;
  /** The secret a rotation replaced, in clear, while its grace period runs at `now`; else null or absent. */
  previousSigningSecret?: string | null;
  /** WEBHOOK_SIGNATURE_HEADER (default X-Service-Signature). */
  signatureHeader: string;
  now: Date;
  /** The correlation id of the change that caused the webhook (the same on every attempt), if known. */
  correlationId?: string | null;
}

/**
 * Headers of one attempt (decisions.md, "Webhooks"): the ids stay the same on every attempt, the
 * Standard Webhooks timestamp is the attempt's (receivers reject stale ones as replays), and the
 * signatures are present only when the account has a signing secret: during a rotation's grace
 * period, made with both secrets (docs/webhook-delivery.md, "Secret rotation").
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
    const previous = input.previousSigningSecret ?? null;
    if (previous === null) {
      headers[input.signatureHeader] = serviceSignature(input.signingSecret, input.body);
      headers['webhook-signature'] = standardWebhookSignature(input.signingSecret, input.webhookId, timestamp, input.body);
    } else {
      // During a rotation's grace period the single-valued hex header stays what receivers not yet
      // updated verify (the previous secret's); the new secret's hex travels beside it.
      headers[input.signatureHeader] = serviceSignature(previous, input.body);
      headers[`${input.signatureHeader}-New`] = serviceSignature(input.signingSecret, input.body);
      // Standard Webhooks: a space-delimited list, any one of which verifies; the new secret's first.
      headers['webhook-signature'] = `${standardWebhookSignature(input.signingSecret, input.webhookId, timestamp, input.body)} ${standardWebhookSignature(previous, input.webhookId, timestamp, input.body)}`;
    }
  }
  return headers;
}
