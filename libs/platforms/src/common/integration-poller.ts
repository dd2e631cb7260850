import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SecretDecryptionError } from '@courier/crypto';
import { TaskOutcome, UnitOfWork } from '@courier/messaging';
import type { IntegrationCredentials } from './platform-adapter';
import type { InboundIntegration, PlatformOrderIntake } from './platform-order-intake';

/** A poll the platform refused (credentials) is tried again this much less often than a normal one. */
export const REFUSED_POLL_BACKOFF_FACTOR = 10;

/** How a poll went: through, not now (network, 429, 5xx; maybe with the platform's wait), or refused. */
export interface PollOutcome {
  kind: 'ok' | 'retry' | 'failed';
  retryAfterMs?: number;
}

/** When to poll again: after the interval; after a refused poll much later; after an unavailable one the interval or the platform's wait, whichever is longer. */
export function nextPollAt(outcome: PollOutcome, intervalMs: number, fromMs: number): Date {
  return new Date(fromMs + (outcome.kind === 'failed' ? intervalMs * REFUSED_POLL_BACKOFF_FACTOR : Math.max(intervalMs, outcome.retryAfterMs ?? 0)));
}

/** What a platform's poller names for IntegrationPoller. */
export interface IntegrationPollSpec {
  platform: string;
  /** Task kinds of the per-integration poll and of the planner. */
  pollTask: string;
  plannerTask: string;
  /** The dedupe key of an integration's poll task: one task per integration across replicas. */
  taskKey(integrationId: string): string;
  intervalMs(): number;
}

/**
 * Polling of a platform per active integration on the durable task runner: one poll task per
 * integration (never two at once: one dedupe key per integration, shared by the replicas), and a
 * planner task that adds the task of every active integration (new or re-activated ones) each
 * interval. A poll task of an integration no longer active ends itself. Restarts lose nothing.
 */
export abstract class IntegrationPoller implements OnApplicationBootstrap {
  protected readonly logger: Logger;

  protected constructor(
    private readonly unitOfWork: UnitOfWork,
    protected readonly intake: PlatformOrderIntake,
    private readonly spec: IntegrationPollSpec,
  ) {
    this.logger = new Logger(`${spec.platform} polling`);
  }

  /** One poll of an active integration; its outcome reschedules the task. */
  abstract poll(integration: InboundIntegration): Promise<TaskOutcome>;

  /** The planner, once for all replicas. */
  async onApplicationBootstrap(): Promise<void> {
    await this.unitOfWork.run((tx) => tx.schedule({ kind: this.spec.plannerTask, dueAt: new Date(), payload: {}, dedupeKey: this.spec.plannerTask }));
  }

  /** Adds a poll task for every active integration that has none. */
  async plan(): Promise<TaskOutcome> {
    const ids = await this.intake.activeIntegrationIds(this.spec.platform);
    if (ids.length > 0) {
      await this.unitOfWork.run(async (tx) => {
        for (const integrationId of ids) await tx.schedule({ kind: this.spec.pollTask, dueAt: new Date(), payload: { integrationId }, dedupeKey: this.spec.taskKey(integrationId) });
      });
    }
    return { rescheduleAt: new Date(Date.now() + this.spec.intervalMs()) };
  }

  async pollIntegration(integrationId: string): Promise<TaskOutcome> {
    const integration = await this.intake.integrationById(integrationId);
    if (!integration || integration.platform !== this.spec.platform || integration.deleted || !integration.isActive || !integration.accountActive) {
      this.logger.log({ integrationId }, `${this.spec.platform} integration no longer active: polling stops`);
      return;
    }
    return this.poll(integration);
  }

  /** The integration's credentials, or undefined when its secrets cannot be decrypted. */
  protected credentials(integration: InboundIntegration): IntegrationCredentials | undefined {
    try {
      return this.intake.credentials(integration);
    } catch (error) {
      if (error instanceof SecretDecryptionError) return undefined;
      throw error;
    }
  }

  /** When to poll again (nextPollAt, with the platform's interval). */
  protected nextPollAt(outcome: PollOutcome, fromMs = Date.now()): Date {
    return nextPollAt(outcome, this.spec.intervalMs(), fromMs);
  }
}
