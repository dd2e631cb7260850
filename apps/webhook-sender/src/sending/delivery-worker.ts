import { Injectable, Logger } from '@nestjs/common';
import { SecretBox, secretBinding, SecretDecryptionError } from '@courier/crypto';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import type { AttemptRecord, ClaimedDelivery } from '../repositories/delivery.model';
import { afterAttempt, deliveryTarget, RetryPolicy } from './delivery-attempt.decisions';
import { HostLimiter, hostKey } from './host-limiter';
import { ReceiverClient, ReceiverOutcome } from './receiver-client';
import { webhookHeaders } from './webhook-headers';

/**
 * One turn of a claimed delivery, without touching the database: the URL and signing secret are the
 * account's as they are now (a rotated secret or a fixed URL applies to retries), the stored bytes
 * are sent through the safe client within the host's concurrency limit, and the retry policy says
 * what comes next.
 */
@Injectable()
export class DeliveryWorker {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly policy: RetryPolicy;

  constructor(
    private readonly config: WebhookSenderConfig,
    private readonly secretBox: SecretBox,
    private readonly client: ReceiverClient,
    private readonly limiter: HostLimiter,
  ) {
    this.policy = { scheduleMs: config.WEBHOOK_RETRY_SCHEDULE, alertAfterMs: config.WEBHOOK_ALERT_AFTER, maxAgeMs: config.WEBHOOK_MAX_AGE };
  }

  async attempt(delivery: ClaimedDelivery): Promise<AttemptRecord> {
    // The account events travel on another queue and may lag behind the order's: then it is tried again later.
    const target = deliveryTarget(delivery);
    if (target.kind === 'fail') return this.failedWithoutRequest(delivery, null, target.error);
    if (target.kind === 'skip') return { kind: 'skip', delivery, error: target.error };
    const { url } = target;

    let signingSecret: string | null = null;
    if (delivery.signingSecretCiphertext !== null) {
      try {
        signingSecret = this.secretBox.decrypt(delivery.signingSecretCiphertext, secretBinding.webhookSigningSecret(delivery.restaurantId));
      } catch (error) {
        if (!(error instanceof SecretDecryptionError)) throw error;
        // Never sent unsigned when a secret is set: the operator must supply the key.
        this.logger.error({ deliveryId: delivery.id, restaurantId: delivery.restaurantId, keyId: error.keyId }, 'signing secret cannot be opened with SECRETS_ENCRYPTION_KEYS; webhook not sent');
        return this.failedWithoutRequest(delivery, url, 'the signing secret cannot be opened by the sender (operator notified)');
      }
    }

    const host = hostKey(url);
    const release = await this.limiter.acquire(host);
    if (!release) return { kind: 'defer', delivery, until: new Date(Date.now() + this.limiter.retryDelayMs(host)) };
    const number = delivery.attempts + 1;
    const startedAt = new Date();
    let outcome: ReceiverOutcome | undefined;
    try {
      const previousSigningSecret = signingSecret === null ? null : this.previousSigningSecret(delivery, startedAt);
      const body = Buffer.from(delivery.body, 'utf8');
      const headers = webhookHeaders({ webhookId: delivery.id, attempt: number, body, signingSecret, previousSigningSecret, signatureHeader: this.config.WEBHOOK_SIGNATURE_HEADER, now: startedAt, correlationId: delivery.correlationId });
      outcome = await this.client.post({ url, headers, body, timeoutMs: this.config.WEBHOOK_TIMEOUT_MS });
    } finally {
      release(outcome?.latencyMs ?? this.config.WEBHOOK_TIMEOUT_MS);
    }
    return this.concluded(delivery, url, startedAt, outcome);
  }

  /**
   * The rotated-out secret in clear while its grace period runs at `at` (retries and redeliveries are
   * signed with the secrets valid when they are sent), else null. One that cannot be opened is left
   * out, loudly: the current secret still signs, so receivers that switched keep verifying.
   */
  private previousSigningSecret(delivery: ClaimedDelivery, at: Date): string | null {
    const ciphertext = delivery.previousSigningSecretCiphertext;
    const validUntil = delivery.previousSigningSecretValidUntil;
    if (ciphertext === null || validUntil === null || validUntil <= at) return null;
    try {
      return this.secretBox.decrypt(ciphertext, secretBinding.webhookSigningSecret(delivery.restaurantId));
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      this.logger.error({ deliveryId: delivery.id, restaurantId: delivery.restaurantId, keyId: error.keyId }, 'previous signing secret cannot be opened with SECRETS_ENCRYPTION_KEYS; signed with the current secret only');
      return null;
    }
  }

  private failedWithoutRequest(delivery: ClaimedDelivery, url: string | null, error: string): AttemptRecord {
    return this.concluded(delivery, url, new Date(), { ok: false, statusCode: null, latencyMs: 0, error });
  }

  private concluded(delivery: ClaimedDelivery, url: string | null, startedAt: Date, outcome: ReceiverOutcome): AttemptRecord {
    return { kind: 'attempt', delivery, number: delivery.attempts + 1, url, startedAt, outcome, ...afterAttempt(this.policy, delivery, outcome.ok, new Date()) };
  }
}
