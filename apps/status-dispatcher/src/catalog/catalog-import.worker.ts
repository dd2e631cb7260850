import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SecretDecryptionError } from '@courier/crypto';
import { OnTask, ScheduledTask, TaskOutcome, UnitOfWork } from '@courier/messaging';
import { IntegrationCredentials } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { bookedSlotUsable, budgetWait } from '../status-updates/status-dispatch.decisions';
import { decideImportAnswer } from './catalog.decisions';
import { CatalogMetrics } from './catalog.metrics';
import { CATALOG_IMPORT_PLANNER_TASK, CATALOG_IMPORT_TASK, CatalogRepository } from './catalog.repository';
import { ImportRow } from './catalog.model';
import { CatalogService } from './catalog.service';

export interface ImportTaskPayload {
  importId: string;
}

/**
 * Runs the catalog imports (one durable task each) and their schedule. An import reads the
 * integration's menu once its platform's call budget has room (`catalog:read`; no room: it waits
 * for the slot it booked), then CatalogService stores it; a read that failed for now is read again
 * with the commands' backoff, a refusal ends the import failed with nothing stored. The schedule is
 * a durable planner task (one across replicas, like the availability read-back's) that queues an
 * import for every readable integration whose last one is older than CATALOG_IMPORT_INTERVAL_MS.
 */
@Injectable()
export class CatalogImportWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger('Catalog');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly imports: CatalogRepository,
    private readonly service: CatalogService,
    private readonly directory: IntegrationDirectory,
    private readonly budgets: PlatformCallBudgets,
    private readonly config: DispatcherConfig,
    private readonly metrics: CatalogMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.CATALOG_IMPORT_INTERVAL_MS === 0) return;
    await this.unitOfWork.run((tx) => tx.schedule({ kind: CATALOG_IMPORT_PLANNER_TASK, dueAt: new Date(), payload: {}, dedupeKey: CATALOG_IMPORT_PLANNER_TASK }));
  }

  @OnTask(CATALOG_IMPORT_PLANNER_TASK)
  async onPlannerDue(): Promise<TaskOutcome> {
    const interval = this.config.CATALOG_IMPORT_INTERVAL_MS;
    // 0 turns the schedule off: a planner left from a run with it on ends here.
    if (interval === 0) return;
    await this.service.queueScheduledImports(interval);
    // Checked several times per interval so an integration verified meanwhile waits less than a whole interval.
    return { rescheduleAt: new Date(Date.now() + Math.max(1_000, Math.min(interval, Math.ceil(interval / 6)))) };
  }

  @OnTask(CATALOG_IMPORT_TASK)
  async onImportDue(task: ScheduledTask<ImportTaskPayload>): Promise<TaskOutcome> {
    return this.run(task.payload.importId);
  }

  async run(importId: string): Promise<TaskOutcome> {
    const now = new Date();
    const row = await this.imports.start(importId, now);
    if (!row) return;
    const integration = await this.directory.byId(row.integrationId);
    if (!integration || integration.deleted) return this.fail(row, 'INTEGRATION_DELETED: the integration no longer exists');
    if (!integration.isActive || !integration.accountActive) return this.fail(row, 'INTEGRATION_DISABLED: the integration (or its account) is not active');
    if (!integration.verified) return this.fail(row, 'INTEGRATION_NOT_VERIFIED: the integration is not verified by its platform');
    const catalog = this.service.catalogOf(row.platform);
    if (!catalog?.readMenu) return this.fail(row, `MENU_READ_UNSUPPORTED: ${this.service.menuReadUnsupported(row.platform)}`);
    let credentials: IntegrationCredentials;
    try {
      credentials = this.directory.credentials(integration);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return this.fail(row, `the integration's secrets cannot be decrypted (key ${error.keyId ?? 'unknown'} is not in SECRETS_ENCRYPTION_KEYS)`);
    }
    const slot = await this.budgetSlot(row, credentials, now);
    if (slot) {
      await this.imports.waitForBudgetSlot(row.id, slot);
      this.logger.log({ importId, platform: row.platform, slot: slot.toISOString() }, 'platform call budget used up: the catalog import waits for its booked slot');
      return { rescheduleAt: slot };
    }
    const attempts = await this.imports.countAttempt(row.id);
    if (attempts === undefined) return;
    const outcome = await catalog.readMenu(credentials);
    this.metrics.reads.inc({ platform: row.platform, outcome: outcome.kind });
    if (outcome.kind === 'ok') {
      await this.service.storeMenu(row.id, integration, outcome.products, outcome.answer);
      return;
    }
    const policy = { baseMs: this.config.STATUS_PUSH_RETRY_BASE_MS, maxDelayMs: this.config.STATUS_PUSH_RETRY_MAX_DELAY_MS, maxAgeMs: this.config.STATUS_PUSH_RETRY_MAX_AGE_MS };
    const decision = decideImportAnswer({ attempts, firstAttemptAt: row.startedAt, acceptedAt: row.requestedAt }, outcome, new Date(), policy, Math.random());
    if (decision.kind === 'retry') {
      await this.imports.recordRetry(row.id, decision.answer);
      this.logger.warn({ importId, platform: row.platform, attempt: attempts, httpStatus: decision.answer.httpStatus, nextAttemptAt: decision.at.toISOString() }, 'catalog menu read to be retried');
      return { rescheduleAt: decision.at };
    }
    return this.fail(row, decision.error, decision.answer);
  }

  /** When the read may go: undefined now (its booked slot has come, or there is room), else the slot booked. */
  private async budgetSlot(row: ImportRow, credentials: IntegrationCredentials, now: Date): Promise<Date | undefined> {
    if (bookedSlotUsable(row.budgetSlotAt, now, this.config.PLATFORM_CALL_BUDGET_LATE_MS)) return undefined;
    // A slot still ahead (the task woke early) is waited for, not booked again.
    if (row.budgetSlotAt && row.budgetSlotAt.getTime() > now.getTime()) return row.budgetSlotAt;
    const booking = await this.budgets.book(row.platform, credentials, 'catalog:read');
    return booking && budgetWait(booking.slot, booking.bookedAt);
  }

  private async fail(row: ImportRow, error: string, answer: Parameters<CatalogRepository['fail']>[1] = null): Promise<TaskOutcome> {
    if (await this.imports.fail(row.id, answer, error, new Date())) {
      this.metrics.imports.inc({ platform: row.platform, state: 'failed' });
      this.logger.warn({ importId: row.id, integrationId: row.integrationId, platform: row.platform, error, httpStatus: answer?.httpStatus }, 'catalog import failed: nothing stored');
    }
  }
}
