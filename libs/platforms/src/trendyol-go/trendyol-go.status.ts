import type { StatusPushAction } from '@courier/domain';
import type { IntegrationCredentials, PlatformCallOutcome, PlatformOrderRef } from '../common/platform-adapter';
import type { PlatformStatus } from '../common/platform-status';
import { classifyResponse, networkAnswer, outcomeOfError } from '../common/outcomes';
import { PlatformNetworkError } from '../common/platform-http';
import {
  PLATFORM_C_CANCEL_REASONS,
  PLATFORM_C_DEFAULT_CANCEL_REASON,
  PLATFORM_C_DEFAULT_PREPARATION_MINUTES,
  PLATFORM_C_OUT_OF_ORDER_STATUS,
  PLATFORM_C_RATE_LIMIT_WINDOW_MS,
  platformCPackagesPath,
  STORE_DELIVERY,
} from './trendyol-go.assumptions';
import type { PlatformCCalls } from './trendyol-go.availability';
import type { PlatformCOrderData } from './trendyol-go.orders';

type Operation = { path: string; body: Record<string, unknown> } | { skip: string } | { refuse: string };

/**
 * PLATFORM_C's status calls: `PUT .../suppliers/{supplierId}/packages/{picked|invoiced|unsupplied}`
 * and, for the store's own courier, `.../{packageId}/manual-shipped|manual-delivered`
 * (trendyol-go.assumptions.ts).
 */
export class PlatformCStatus implements PlatformStatus {
  constructor(private readonly calls: PlatformCCalls) {}

  async send(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const problem = this.calls.credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    const operation = this.operationFor(order, action, reason);
    if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
    if ('refuse' in operation) return { kind: 'failed', answer: { httpStatus: null, body: null, error: operation.refuse }, reason: operation.refuse };
    try {
      const response = await this.calls.call(credentials, 'PUT', `${platformCPackagesPath(credentials.settings.supplierId)}${operation.path}`, operation.body);
      const outcome = classifyResponse(response);
      if (outcome.kind === 'retry' && response.status === 429) return { ...outcome, retryAfterMs: outcome.retryAfterMs ?? PLATFORM_C_RATE_LIMIT_WINDOW_MS };
      if (outcome.kind === 'failed' && response.status === PLATFORM_C_OUT_OF_ORDER_STATUS) {
        return { ...outcome, reason: `PLATFORM_C refused ${action} as out of order (HTTP 409): the package is not in the status this step follows on the platform` };
      }
      return outcome;
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return outcomeOfError(error);
    }
  }

  private operationFor(order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Operation {
    const data = order.platformData as Partial<PlatformCOrderData>;
    const packageId = order.platformOrderId;
    const ownCourier = data.deliveryType === STORE_DELIVERY;
    // Nobody ships a package the customer collects: its courier steps have no call.
    const pickup = data.storePickup === true ? `the customer collects this package at the store (storePickupSelected): PLATFORM_C has no ${action === 'HANDOVER' ? 'manual-shipped' : 'manual-delivered'} for it` : undefined;
    switch (action) {
      case 'VERIFY':
        return { path: '/picked', body: { packageId, preparationTime: data.preparationTime || PLATFORM_C_DEFAULT_PREPARATION_MINUTES } };
      case 'PREPARE':
        return { path: '/invoiced', body: { packageId } };
      case 'HANDOVER':
        if (pickup) return { skip: pickup };
        return ownCourier ? { path: `/${encodeURIComponent(packageId)}/manual-shipped`, body: {} } : { skip: 'the platform\'s courier carries this package (deliveryType GO): manual-shipped is for STORE delivery only' };
      case 'DELIVER':
        if (pickup) return { skip: pickup };
        return ownCourier ? { path: `/${encodeURIComponent(packageId)}/manual-delivered`, body: {} } : { skip: 'the platform\'s courier delivers this package (deliveryType GO) and reports it' };
      case 'CANCEL':
      case 'REJECT': {
        const itemIdList = Array.isArray(data.packageItemIds) ? data.packageItemIds.filter((id): id is string => typeof id === 'string') : [];
        // The platform cancels the items listed: without them there is nothing it could cancel.
        if (itemIdList.length === 0) return { refuse: 'the order holds no packageItemId to cancel (unsupplied needs the package\'s item ids)' };
        return { path: '/unsupplied', body: { packageId, itemIdList, reasonId: cancelReason(reason) } };
      }
    }
  }
}

/** The push's reason when it is one of the documented codes, else the default. */
function cancelReason(reason?: string | null): number {
  const code = Number(reason?.trim());
  return (PLATFORM_C_CANCEL_REASONS as readonly number[]).includes(code) ? code : PLATFORM_C_DEFAULT_CANCEL_REASON;
}
