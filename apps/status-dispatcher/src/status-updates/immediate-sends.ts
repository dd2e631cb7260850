import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Lane, LaneHandOff, LanePlace } from '@courier/messaging';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { claimedStartBy, immediateHandOff, MAX_IMMEDIATE_SENDS, MAX_WAITING_SENDS } from './status-dispatch.decisions';
import { ImmediateSend, StatusDispatchWorker } from './status-dispatch.worker';

const idOf = (item: ImmediateSend) => (typeof item === 'string' ? item : item.id);

/**
 * Queued updates sent by the process that took their push, right after its commit (no task runner
 * round trip): a Lane in front of the updates' tasks, MAX_IMMEDIATE_SENDS at once and
 * MAX_WAITING_SENDS in line. An update claimed at its push must start within its claim
 * (claimedStartBy), else its task takes it over once the claim has run out; one still to claim is
 * handed to its task at once when the line is full. Drained on shutdown (bounded by SHUTDOWN_GRACE_MS);
 * those still in line are sent by their tasks.
 */
@Injectable()
export class ImmediateSends implements BeforeApplicationShutdown {
  private readonly logger = new Logger('StatusDispatch');
  private readonly lane: Lane<ImmediateSend>;

  constructor(
    worker: StatusDispatchWorker,
    private readonly config: DispatcherConfig,
  ) {
    this.lane = new Lane<ImmediateSend>({
      concurrency: MAX_IMMEDIATE_SENDS,
      lineLimit: MAX_WAITING_SENDS,
      run: (item) => worker.sendAtOnce(item).catch((error) => this.logger.warn({ err: error, statusUpdateId: idOf(item) }, 'immediate send failed; the durable task takes the update over')),
      startBy: (item) => (typeof item === 'string' ? undefined : claimedStartBy(item.firstAttemptAt!).getTime()),
      handOff: (item, why) => this.handOff(worker, item, why),
    });
  }

  /** Immediate sends are draining: a push leaves its update to the task. */
  get stopping(): boolean {
    return this.lane.draining;
  }

  /** Sends an update just committed as queued: claimed by its push (the update) or to claim (its id). */
  send(item: ImmediateSend): LanePlace {
    return this.lane.offer(item);
  }

  beforeApplicationShutdown(): Promise<void> {
    // Bounded by the platform call's timeout; an update cut off is its task's (sending_until runs out).
    return this.lane.drain(this.config.SHUTDOWN_GRACE_MS);
  }

  private handOff(worker: StatusDispatchWorker, item: ImmediateSend, why: LaneHandOff): void {
    switch (immediateHandOff(why, typeof item !== 'string')) {
      case 'wake-task':
        void worker.handToTask(idOf(item), 'now');
        return;
      case 'leave-to-task':
        this.logger.warn(
          { statusUpdateId: idOf(item) },
          why === 'lease' ? 'claimed update waited too long for an immediate send; its task sends it once the claim has run out' : 'too many updates waiting for an immediate send; its task sends it once the claim has run out',
        );
        return;
      case 'none':
        return;
    }
  }
}
