import { Counter, Histogram, Registry } from 'prom-client';

/**
 * The sender's Prometheus metrics, registered on the app's registry (MetricsModule's, served on
 * /metrics; never prom-client's global one, since the one-machine mode runs several apps in one
 * process). Unit tests may construct it with a registry of their own.
 */
export class WebhookMetrics {
  /** Deliveries that have been failing for WEBHOOK_ALERT_AFTER: page the support team. */
  readonly alerts: Counter;
  readonly attempts: Counter<'result'>;
  readonly finished: Counter<'status'>;
  readonly latency: Histogram;
  /** Finished deliveries deleted by the retention (WEBHOOK_RETENTION). */
  readonly purged: Counter;

  constructor(readonly registry: Registry = new Registry()) {
    this.alerts = new Counter({ name: 'webhook_delivery_alerts_total', help: 'Webhook deliveries failing for WEBHOOK_ALERT_AFTER (alert raised once per delivery).', registers: [registry] });
    this.attempts = new Counter({ name: 'webhook_attempts_total', help: 'Webhook attempts by result.', labelNames: ['result'] as const, registers: [registry] });
    this.finished = new Counter({ name: 'webhook_deliveries_finished_total', help: 'Deliveries that reached a final status.', labelNames: ['status'] as const, registers: [registry] });
    this.purged = new Counter({ name: 'webhook_deliveries_purged_total', help: 'Finished deliveries deleted after WEBHOOK_RETENTION, with their attempts.', registers: [registry] });
    this.latency = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: "Time of an attempt, from the URL check to the receiver's status line.",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }
}
