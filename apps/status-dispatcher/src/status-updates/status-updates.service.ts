import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { PlatformRegistry } from '@courier/platforms';
import { isUuid } from '../common/ids';
import { StatusUpdateDto } from './dto/status-update.dto';
import type { StatusUpdateRow } from './status-update.model';
import { StatusUpdateRepository } from './status-update.repository';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** Reads status updates for operators and callers. */
@Injectable()
export class StatusUpdatesService {
  constructor(
    private readonly updates: StatusUpdateRepository,
    private readonly registry: PlatformRegistry,
  ) {}

  async get(statusUpdateId: string): Promise<StatusUpdateDto> {
    const notFound = new ProblemException(404, ErrorCode.StatusUpdateNotFound, 'No status update has this id.');
    if (!isUuid(statusUpdateId)) throw notFound;
    const row = await this.updates.find(statusUpdateId.toLowerCase());
    if (!row) throw notFound;
    return this.present(row, new Date());
  }

  present(row: StatusUpdateRow & { waitingFor: string | null }, now: Date): StatusUpdateDto {
    // A held update past its release time waits only for its wake-up: it is queued.
    const state = row.state === 'held' && row.notBefore.getTime() <= now.getTime() ? 'queued' : row.state;
    // Queued for a later slot of the platform's call budget (until that slot comes).
    const waitReason = state === 'queued' && row.holdReason === 'PLATFORM_CALL_BUDGET' && row.notBefore.getTime() > now.getTime() ? row.holdReason : null;
    return {
      statusUpdateId: row.id,
      yemekKuryeOrderId: row.orderId,
      providerOrderId: row.providerOrderId,
      platform: this.registry.wireCodeOf(row.platform),
      action: row.action,
      state,
      releaseAt: state === 'held' ? row.notBefore.toISOString() : null,
      holdReason: state === 'held' ? row.holdReason : null,
      nextAttemptAt: state === 'retrying' || waitReason ? row.notBefore.toISOString() : null,
      waitReason,
      waitingFor: state === 'queued' || state === 'held' || state === 'retrying' ? row.waitingFor : null,
      attempts: row.attempts,
      previousStatus: row.previousStatus,
      reason: row.reason,
      acceptedAt: row.acceptedAt.toISOString(),
      firstAttemptAt: iso(row.firstAttemptAt),
      lastAttemptAt: iso(row.lastAttemptAt),
      sentAt: iso(row.sentAt),
      platformAnswer: row.lastAnswer,
      error: row.lastError,
    };
  }
}
