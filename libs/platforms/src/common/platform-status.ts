import type { StatusPushAction } from '@courier/domain';
import type { IntegrationCredentials, PlatformCallOutcome, PlatformOrderRef } from './platform-adapter';

/**
 * Status out: the platform's calls for one order's steps (VERIFY to DELIVER, CANCEL, REJECT), as the
 * status dispatcher's worker makes them. Calls are booked in the adapter's `callBudget` under the
 * action's name before they are made.
 */
export interface PlatformStatus {
  /** One step of one order, answered as done / skipped / retry (with the platform's pacing) / failed. */
  send(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome>;
  /**
   * The platform's minimum interval between consecutive steps of one order, for the actions it
   * applies to (the definition's spacedSteps), or undefined. The same interval is the hold of a
   * platform whose statusRules hold PREPARE after approval (its client config sets it).
   */
  stepSpacing?(): { actions: readonly StatusPushAction[]; ms: number } | undefined;
}
