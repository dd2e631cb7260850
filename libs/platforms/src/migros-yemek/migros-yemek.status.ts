import type { StatusPushAction } from '@courier/domain';
import type { IntegrationCredentials, PlatformCallOutcome, PlatformOrderRef } from '../common/platform-adapter';
import type { PlatformStatus } from '../common/platform-status';
import { networkAnswer, outcomeOfError } from '../common/outcomes';
import { isRecord } from '../common/payload-reader';
import { PlatformNetworkError } from '../common/platform-http';
import {
  PLATFORM_D_NEW_ORDER_STATUS,
  PLATFORM_D_NOTIFY_USER,
  PLATFORM_D_ORDER_STATUS,
  PLATFORM_D_PATHS,
  PLATFORM_D_RESTAURANT_DELIVERY,
  PLATFORM_D_STEP_STATUS,
  PLATFORM_D_UNKNOWN_USER_ID,
  platformDId,
} from './migros-yemek.assumptions';
import { answerOf, outcomeOf, PlatformDCalls, succeeded } from './migros-yemek.answers';
import type { PlatformDOrderData } from './migros-yemek.orders';

/**
 * PLATFORM_D's status calls: UpdateOrderStatus with the step's Migros status (encrypted POST with the
 * store's key); a cancellation picks its reason from GetCancelReasons and is Rejected while Migros still
 * has the order new, else CancelOrder (migros-yemek.assumptions.ts).
 */
export class PlatformDStatus implements PlatformStatus {
  constructor(private readonly calls: PlatformDCalls) {}

  async send(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const data = order.platformData as Partial<PlatformDOrderData>;
    const ids = { orderId: platformDId(order.platformOrderId), storeId: platformDId(credentials.providerRestaurantId) };
    try {
      if (action === 'CANCEL' || action === 'REJECT') return await this.cancel(credentials, order, ids, reason);
      if ((action === 'HANDOVER' || action === 'DELIVER') && data.deliveryProvider && data.deliveryProvider !== PLATFORM_D_RESTAURANT_DELIVERY) {
        return { kind: 'skipped', reason: `Migros' own courier delivers this order (deliveryProvider ${data.deliveryProvider}): Delivery and Completed are the restaurant courier's steps` };
      }
      return outcomeOf(await this.calls.post(credentials, PLATFORM_D_PATHS.updateOrderStatus, { ...ids, orderStatus: PLATFORM_D_STEP_STATUS[action] }));
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return outcomeOfError(error);
    }
  }

  /**
   * A cancellation: the reason id from GetCancelReasons, then Rejected while Migros still has the
   * order NEW_PENDING (GetOrderDetail), else CancelOrder (meant for approved orders).
   */
  private async cancel(credentials: IntegrationCredentials, order: PlatformOrderRef, ids: { orderId: number | string; storeId: number | string }, reason?: string | null): Promise<PlatformCallOutcome> {
    const reasons = await this.calls.get(credentials, PLATFORM_D_PATHS.cancelReasons);
    if (!succeeded(reasons)) return outcomeOf(reasons);
    const cancelReasonId = chooseCancelReason(reasons.body, reason);
    if (cancelReasonId === undefined) return { kind: 'failed', answer: answerOf(reasons), reason: 'PLATFORM_D offered no cancel reason (GetCancelReasons)' };
    const query = `?orderId=${encodeURIComponent(order.platformOrderId)}&storeId=${encodeURIComponent(credentials.providerRestaurantId)}`;
    const detail = await this.calls.get(credentials, `${PLATFORM_D_PATHS.orderDetail}${query}`);
    if (!succeeded(detail)) return outcomeOf(detail);
    const status = isRecord(detail.body) && isRecord(detail.body.data) ? detail.body.data.status : undefined;
    if (status === PLATFORM_D_NEW_ORDER_STATUS) {
      return outcomeOf(await this.calls.post(credentials, PLATFORM_D_PATHS.updateOrderStatus, { ...ids, orderStatus: PLATFORM_D_ORDER_STATUS.REJECTED, cancelReasonId }));
    }
    // Both ids: M-go sends storeId, AJ userId (the customer's id), M-hp both (migros-yemek.assumptions.ts).
    const userId = (order.platformData as Partial<PlatformDOrderData>).userId;
    return outcomeOf(
      await this.calls.post(credentials, PLATFORM_D_PATHS.cancelOrder, { ...ids, userId: userId ? platformDId(userId) : PLATFORM_D_UNKNOWN_USER_ID, notifyUser: PLATFORM_D_NOTIFY_USER, cancelReasonId }),
    );
  }
}

/** The reason the push named (by reasonId or description), else the first offered. */
function chooseCancelReason(body: unknown, reason?: string | null): number | string | undefined {
  const list = isRecord(body) && Array.isArray(body.data) ? body.data : Array.isArray(body) ? body : [];
  const reasons = list.filter(isRecord).filter((entry) => typeof entry.reasonId === 'number' || typeof entry.reasonId === 'string');
  const wanted = reason?.trim().toLowerCase();
  const match = wanted
    ? reasons.find((entry) => String(entry.reasonId) === wanted) ?? reasons.find((entry) => typeof entry.description === 'string' && entry.description.toLowerCase().includes(wanted))
    : undefined;
  return (match ?? reasons[0])?.reasonId as number | string | undefined;
}
