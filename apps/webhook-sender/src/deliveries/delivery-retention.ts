import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Interval, Timeout } from '@nestjs/schedule';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import { DeliveriesRepository } from '../repositories/deliveries.repository';
import { WebhookMetrics } from '../sending/webhook-metrics';

/** Rows deleted per statement: short transactions, no long lock on the table. */
const BATCH = 1_000;
/** How often the retention runs; the first run comes a minute after start (not in the start-up rush). */
const EVERY_MS = 60 * 60_000;
const FIRST_AFTER_MS = 60_000;

/**
 * Deletes finished deliveries (delivered, failed, skipped) created and last changed more than
 * WEBHOOK_RETENTION ago, with their attempts (ON DELETE CASCADE); a delivery still pending or
 * retrying is never touched, however old. Every replica runs it: a row deleted by another one is
 * simply not found again. In batches, each its own short statement.
 */
@Injectable()
export class DeliveryRetention implements BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryRetention');
  private running?: Promise<number>;
  private stopped = false;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly config: WebhookSenderConfig,
    private readonly metrics: WebhookMetrics,
  ) {}

  @Timeout('webhook-delivery-retention.first', FIRST_AFTER_MS)
  firstRun(): Promise<void> {
    return this.scheduledRun();
  }

  @Interval('webhook-delivery-retention', EVERY_MS)
  hourlyRun(): Promise<void> {
    return this.scheduledRun();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Deletes what the retention allows as of `now`; returns how many deliveries went. */
  async purge(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.WEBHOOK_RETENTION);
    let total = 0;
    for (;;) {
      const deleted = await this.deliveries.deleteFinishedBefore(cutoff, BATCH);
      total += deleted;
      this.metrics.purged.inc(deleted);
      if (deleted < BATCH || this.stopped) break;
    }
    if (total > 0) this.logger.log({ deleted: total, before: cutoff.toISOString() }, 'finished webhook deliveries deleted (WEBHOOK_RETENTION)');
    return total;
  }

  private async scheduledRun(): Promise<void> {
    // A run still going (a large backlog) is not doubled.
    if (this.running || this.stopped) return;
    this.running = this.purge().catch((error) => {
      this.logger.warn({ err: error }, 'delivery retention failed; tried again next time');
      return 0;
    });
    await this.running.finally(() => (this.running = undefined));
  }
}
