import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SecretDecryptionError } from '@courier/crypto';
import { OnTask, ScheduledTask, TaskOutcome, UnitOfWork } from '@courier/messaging';
import { PlatformAdapters } from '@courier/platforms';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { AvailabilityMetrics } from './availability.metrics';
import { AvailabilityRepository } from './availability.repository';
import { AvailabilityService } from './availability.service';

export const AVAILABILITY_READ_PLANNER_TASK = 'availability.read-planner';
export const AVAILABILITY_READ_TASK = 'availability.read';
export const readTaskKey = (integrationId: string) => `availability-read:${integrationId}`;

interface ReadTaskPayload {
  integrationId: string;
}

/**
 * Reads each store's state back from the platforms that let us (`availability.readStore`), every
 * AVAILABILITY_READ_INTERVAL_MS, on the durable task runner: one read task per active, verified
 * integration (one dedupe key across replicas) and a planner adding the missing ones. A read is
 * booked in the platform's budget (availability:read) only when there is room now: reads never
 * push commands back. What the platform says goes to AvailabilityService.recordPlatformReport.
 */
@Injectable()
export class AvailabilityReadBack implements OnApplicationBootstrap {
  private readonly logger = new Logger('Availability');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountDirectoryRepository,
    private readonly directory: IntegrationDirectory,
    private readonly adapters: PlatformAdapters,
    private readonly budgets: PlatformCallBudgets,
    private readonly service: AvailabilityService,
    private readonly availability: AvailabilityRepository,
    private readonly config: DispatcherConfig,
    private readonly metrics: AvailabilityMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.unitOfWork.run((tx) => tx.schedule({ kind: AVAILABILITY_READ_PLANNER_TASK, dueAt: new Date(), payload: {}, dedupeKey: AVAILABILITY_READ_PLANNER_TASK }));
  }

  private readablePlatforms(): string[] {
    return this.adapters.codes().filter((code) => this.adapters.get(code)?.availability?.readStore !== undefined);
  }

  @OnTask(AVAILABILITY_READ_PLANNER_TASK)
  async onPlannerDue(): Promise<TaskOutcome> {
    const platforms = this.readablePlatforms();
    const integrations = platforms.length > 0 ? await this.accounts.readableIntegrations(platforms) : [];
    if (integrations.length > 0) {
      await this.unitOfWork.run(async (tx) => {
        for (const { integrationId } of integrations) await tx.schedule({ kind: AVAILABILITY_READ_TASK, dueAt: new Date(), payload: { integrationId } satisfies ReadTaskPayload, dedupeKey: readTaskKey(integrationId) });
      });
    }
    return { rescheduleAt: new Date(Date.now() + this.config.AVAILABILITY_READ_INTERVAL_MS) };
  }

  @OnTask(AVAILABILITY_READ_TASK)
  async onReadDue(task: ScheduledTask<ReadTaskPayload>): Promise<TaskOutcome> {
    const integration = await this.directory.byId(task.payload.integrationId);
    const readStore = integration ? this.adapters.get(integration.platform)?.availability?.readStore?.bind(this.adapters.get(integration.platform)!.availability) : undefined;
    if (!integration || !readStore || integration.deleted || !integration.isActive || !integration.accountActive || !integration.verified) return;
    const next = { rescheduleAt: new Date(Date.now() + this.config.AVAILABILITY_READ_INTERVAL_MS) };
    let credentials;
    try {
      credentials = this.directory.credentials(integration);
    } catch (error) {
      if (error instanceof SecretDecryptionError) return next;
      throw error;
    }
    if ((await this.budgets.bookNow(integration.platform, credentials, 'availability:read')) === false) {
      this.metrics.reads.inc({ platform: integration.platform, outcome: 'no_budget' });
      return next;
    }
    const outcome = await readStore(credentials);
    this.metrics.reads.inc({ platform: integration.platform, outcome: outcome.kind });
    const at = new Date();
    if (outcome.kind === 'ok') {
      await this.service.recordPlatformReport(integration, { state: outcome.state, until: outcome.until ?? null, reason: outcome.platformReason ?? null, source: 'read_back' });
      return next;
    }
    await this.availability.recordReadAnswer(integration, { ...outcome.answer, outcome: outcome.kind, at: at.toISOString() }, at);
    if (outcome.kind === 'retry') return { rescheduleAt: new Date(Date.now() + Math.max(outcome.retryAfterMs ?? 0, Math.min(this.config.AVAILABILITY_READ_INTERVAL_MS, 60_000))) };
    this.logger.warn({ integrationId: integration.integrationId, platform: integration.platform, reason: outcome.reason }, 'reading the store\'s state back was refused');
    return next;
  }
}
