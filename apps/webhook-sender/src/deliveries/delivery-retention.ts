import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
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
export class DeliveryRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryRetention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: WebhookSenderConfig,
    private readonly metrics: WebhookMetrics,
  ) {}

  onApplicationBootstrap(): void {
    const schedule = (delay: number) => {
      this.timer = setTimeout(() => {
        this.running = this.purge().catch((error) => {
          this.logger.warn({ err: error }, 'delivery retention failed; tried again next time');
          return 0;
        });
        void this.running.finally(() => {
          if (!this.stopped) schedule(EVERY_MS);
        });
      }, delay);
      this.timer.unref();
    };
    schedule(FIRST_AFTER_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Deletes what the retention allows as of `now`; returns how many deliveries went. */
  async purge(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.WEBHOOK_RETENTION);
    let total = 0;
    for (;;) {
      const [, deleted] = (await this.dataSource.query(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries
            WHERE created_at < $1 AND updated_at < $1 AND status IN ('delivered', 'failed', 'skipped')
            ORDER BY created_at LIMIT $2)
         RETURNING id`,
        [cutoff, BATCH],
      )) as [unknown[], number];
      total += deleted;
      this.metrics.purged.inc(deleted);
      if (deleted < BATCH || this.stopped) break;
    }
    if (total > 0) this.logger.log({ deleted: total, before: cutoff.toISOString() }, 'finished webhook deliveries deleted (WEBHOOK_RETENTION)');
    return total;
  }
}
