import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CachedSample } from '@courier/observability';
import type { PlatformCallOutcome } from '@courier/platforms';

import { PENDING_UPDATE_STATES } from './status-dispatch.decisions';
import { StatusUpdateRepository } from './status-update.repository';

/** What a call to a platform came to, as `platform_calls_total{outcome}` says it. */
export type PlatformCallLabel = 'sent' | 'already_done' | 'retry' | 'network_error' | 'failed' | 'skipped' | 'error';

export function platformCallLabel(outcome: PlatformCallOutcome): PlatformCallLabel {
  switch (outcome.kind) {
    case 'done':
      return outcome.alreadyDone ? 'already_done' : 'sent';
    case 'skipped':
      return 'skipped';
    case 'retry':
      // No HTTP answer at all (refused, reset, timed out): the platform or the network is down.
      return outcome.answer.httpStatus === null ? 'network_error' : 'retry';
    case 'failed':
      return 'failed';
  }
}

interface PendingSample {
  states: Array<{ state: string; count: number; overdueSeconds: number }>;
}

/**
 * status-dispatcher's metrics of the platform dispatch, on the app's registry (MetricsModule's,
 * served on /metrics): every call to a platform by platform, action and outcome, and its duration;
 * updates ending by state; and the updates waiting now (queued, held, retrying), read from the
 * database when Prometheus scrapes (one indexed query, cached 5 s, bounded by 1 s).
 */
@Injectable()
export class DispatchMetrics {
  readonly calls: Counter<'platform' | 'action' | 'outcome'>;
  readonly duration: Histogram<'platform' | 'action'>;
  readonly finished: Counter<'platform' | 'state'>;
  readonly pushConflicts: Counter<'resolution'>;
  readonly budgetWaits: Counter<'platform'>;
  private readonly pending: CachedSample<PendingSample>;

  constructor(registry: Registry, updates: StatusUpdateRepository) {
    this.calls = new Counter({
      name: 'platform_calls_total',
      help: 'Status updates sent to a platform, by platform, action and outcome (sent, already_done, retry, network_error, failed, skipped, error).',
      labelNames: ['platform', 'action', 'outcome'] as const,
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'platform_call_duration_seconds',
      help: "Time of a status update's platform call, a session login it needed included.",
      labelNames: ['platform', 'action'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
      registers: [registry],
    });
    this.finished = new Counter({
      name: 'status_updates_finished_total',
      help: 'Status updates that reached a final state (sent, skipped, failed), by platform.',
      labelNames: ['platform', 'state'] as const,
      registers: [registry],
    });
    this.pushConflicts = new Counter({
      name: 'status_push_write_conflicts_total',
      help: "Status pushes whose conditional write found the order changed by another write: decided again (retried) or, after STATUS_PUSH_OPTIMISTIC_ATTEMPTS conflicts, under the order's row lock (locked).",
      labelNames: ['resolution'] as const,
      registers: [registry],
    });
    this.budgetWaits = new Counter({
      name: 'platform_call_budget_waits_total',
      help: "Status calls put off to a later slot because the platform's call budget for the credentials was used up, by platform.",
      labelNames: ['platform'] as const,
      registers: [registry],
    });
    this.pending = new CachedSample(async () => ({ states: await updates.pendingByState(1_000) }), { maxAgeMs: 5_000, timeoutMs: 1_500 });
    const sample = () => this.pending.get().catch(() => undefined);
    // Every pending state is always reported (0 when none), NaN while the database cannot be read.
    const bySample = (value: (entry: PendingSample['states'][number] | undefined) => number) =>
      async function collect(this: Gauge<'state'>) {
        const current = await sample();
        for (const state of PENDING_UPDATE_STATES) this.set({ state }, current ? value(current.states.find((entry) => entry.state === state)) : Number.NaN);
      };
    new Gauge({
      name: 'status_updates',
      help: 'Status updates waiting to reach their platform, by state (queued, held, retrying).',
      labelNames: ['state'] as const,
      registers: [registry],
      collect: bySample((entry) => entry?.count ?? 0),
    });
    new Gauge({
      name: 'status_updates_overdue_seconds',
      help: 'How long past its release time (not_before) the oldest waiting update of a state is; 0 when none is overdue.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect: bySample((entry) => entry?.overdueSeconds ?? 0),
    });
  }

  /** Records one status call (`adapter.status.send`); `durationMs` undefined when no call was made (no credentials). */
  recordCall(platform: string, action: string, outcome: PlatformCallLabel, durationMs?: number): void {
    this.calls.inc({ platform, action, outcome });
    if (durationMs !== undefined && outcome !== 'skipped') this.duration.observe({ platform, action }, durationMs / 1000);
  }
}

