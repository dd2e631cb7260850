/**
 * `order.acceptance_due`: a platform order nobody has accepted or rejected on its platform yet (no
 * VERIFY, REJECT or CANCEL sent) is near its accept-by time, when the platform cancels it (and may
 * close the store). Published once per order, by status-dispatcher, at the platform's warning time
 * (`PLATFORM_*_ACCEPT_WARNING_MS` before `acceptBy`); never for an answered or finished order.
 */
export interface OrderAcceptanceDueEvent {
  yemekKuryeOrderId: string;
  /** The platform's order id (the push's providerOrderId). */
  orderId: string;
  restaurantId: string;
  /** Neutral platform code. */
  provider: string;
  providerRestaurantId: string;
  integrationId: string;
  orderNumber: string;
  /** The order's status when the warning went out (NEW: nobody approved it yet). */
  status: string;
  /** When the platform gives up on the order (ISO 8601); may already have passed for an order that reached us late. */
  acceptBy: string;
  /** When this warning was decided (ISO 8601). */
  occurredAt: string;
}
