/** `order.final_approval_due`: a scheduled order reached delivery time minus one hour; courier assignment may start. */
export interface OrderFinalApprovalDueEvent {
  yemekKuryeOrderId: string;
  orderId: string;
  restaurantId: string;
  scheduledDeliveryTime: string;
  dueAt: string;
}
