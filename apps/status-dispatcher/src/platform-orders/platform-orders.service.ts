import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MappedOrderItem, PlatformOrderReceivedEvent, RoutingKey } from '@courier/contracts';
import { Cancellation, isFinalOrderStatus, OrderStatus, PlatformMoveTrigger } from '@courier/domain';
import { TransactionContext, UnitOfWork } from '@courier/messaging';
import { CancellationResult, PlatformOrder, PlatformOrderOfAnotherIntegration, ReceivedOrder } from '@courier/platforms';
import { CatalogOrderItemsService } from '../catalog/catalog-order-items.service';
import type { Order } from '../orders/order.model';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import { OrderAcceptanceScheduler } from './order-acceptance.scheduler';
import { planMoves } from './platform-order-moves';
import { PlatformOrderMetrics } from './platform-order.metrics';
import { PlatformOrderRow } from './platform-order.model';
import { PlatformOrderRepository } from './platform-order.repository';

export type { CancellationResult, ReceivedOrder } from '@courier/platforms';

/**
 * Platform orders in: an accepted platform order becomes an order of the integration's restaurant
 * (once, whatever the platform repeats), and a cancellation from the platform cancels it.
 */
@Injectable()
export class PlatformOrdersService {
  private readonly logger = new Logger('PlatformOrders');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly orders: PlatformOrderRepository,
    private readonly acceptance: OrderAcceptanceScheduler,
    private readonly metrics: PlatformOrderMetrics,
    private readonly catalogItems: CatalogOrderItemsService,
  ) {}

  async receive(integration: DirectoryIntegration, order: PlatformOrder): Promise<ReceivedOrder> {
    const received = await this.unitOfWork.run(async (tx) => {
      const now = new Date();
      // Never handed to an integration its platform has not verified: kept, withheld, until it is.
      const withheld = !(await this.orders.holderVerified(tx.manager, integration.integrationId));
      const row: PlatformOrderRow = {
        id: randomUUID(),
        orderId: order.platformOrderId,
        restaurantId: integration.restaurantId,
        provider: integration.platform,
        providerRestaurantId: integration.providerRestaurantId,
        orderNumber: order.orderNumber,
        status: order.state === 'accepted' ? 'VALIDATED' : 'NEW',
        sequence: 0,
        receivedAt: now,
        scheduledDeliveryTime: order.scheduledDeliveryTime,
        finalApprovalDueAt: null,
        finalApprovedAt: null,
        statusChangedAt: now,
        integrationId: integration.integrationId,
        platformData: order.platformData,
        approvedAt: order.state === 'accepted' ? now : null,
        withheld,
      };
      const acceptBy = this.acceptance.acceptBy(integration.platform, order, now);
      if (!(await this.orders.insert(tx.manager, { row, details: order.details, acceptBy }))) {
        return { yemekKuryeOrderId: await this.knownOrderId(tx, integration, order.platformOrderId), created: false, unmappedItems: 0 };
      }
      await this.noteCollision(tx, integration, row);
      // Items in the restaurant's codes as linked now; a withheld order's are resolved when it is released.
      const announced = withheld ? undefined : await this.catalogItems.announce(tx, row, order.details.items, now);
      if (announced) await tx.publish(RoutingKey.PlatformOrderReceived, platformOrderReceivedEvent(row, order.details, announced.items));
      if (acceptBy) await this.acceptance.schedule(tx, integration.platform, row.id, acceptBy, now);
      if (order.state === 'canceled') await this.cancelLocked(tx, (await this.orders.lockById(tx.manager, row.id, row.provider))!, order.cancelNote);
      return { yemekKuryeOrderId: row.id, created: true, unmappedItems: announced?.unmappedItems ?? 0 };
    });
    this.catalogItems.countUnmapped(integration.platform, received.unmappedItems);
    this.logger.log(
      { platform: integration.platform, platformOrderId: order.platformOrderId, yemekKuryeOrderId: received.yemekKuryeOrderId, integrationId: integration.integrationId, created: received.created, unmappedItems: received.unmappedItems },
      received.created ? 'platform order received' : 'platform order received again; already known',
    );
    return { yemekKuryeOrderId: received.yemekKuryeOrderId, created: received.created };
  }

  /**
   * Hands a verified integration's withheld orders to its account: each order's received event, in
   * the order they arrived (one transaction each, so the outbox publishes them in that order), once
   * (the flag and the event change together). A no-op unless the read model holds it verified.
   */
  async releaseWithheld(integrationId: string): Promise<number> {
    const released: string[] = [];
    for (;;) {
      const order = await this.unitOfWork.run(async (tx) => {
        const next = await this.orders.releaseOldestWithheld(tx.manager, integrationId);
        if (!next) return undefined;
        const announced = await this.catalogItems.announce(tx, next, next.details.items, new Date());
        await tx.publish(RoutingKey.PlatformOrderReceived, platformOrderReceivedEvent(next, next.details, announced.items));
        return { ...next, unmappedItems: announced.unmappedItems };
      });
      if (!order) break;
      this.catalogItems.countUnmapped(order.provider, order.unmappedItems);
      released.push(order.id);
    }
    if (released.length > 0) this.logger.log({ integrationId, yemekKuryeOrderIds: released, count: released.length }, 'withheld platform orders released to the verified integration');
    return released.length;
  }

  /**
   * A cancellation from the platform, by the platform's order id, of one platform store. Without the
   * store (a webhook body that names none) only an id exactly one store holds is cancelled;
   * held by several, none is (`ambiguous`, logged): the store's own poll brings it with its store.
   */
  cancel(provider: string, platformOrderIdValue: string, note?: string, providerRestaurantId?: string): Promise<CancellationResult> {
    return this.unitOfWork.run(async (tx) => {
      let store = providerRestaurantId;
      if (store === undefined) {
        const holders = await this.orders.holders(tx.manager, provider, platformOrderIdValue, { limit: 2 });
        if (holders.length > 1) {
          this.logger.warn({ platform: provider, platformOrderId: platformOrderIdValue, integrationIds: holders.map((holder) => holder.integrationId) }, 'platform cancellation names no store and several stores hold the order id: nothing cancelled');
          return 'ambiguous';
        }
        store = holders[0]?.providerRestaurantId;
        if (store === undefined) return 'unknown';
      }
      return this.cancelLocked(tx, await this.orders.lock(tx.manager, provider, platformOrderIdValue, store), note);
    });
  }

  /** A cancellation from the platform, by our id (the id a platform keeps as its remote order id) and the platform's restaurant. */
  cancelById(provider: string, yemekKuryeOrderId: string, providerRestaurantId: string, note?: string): Promise<CancellationResult> {
    return this.unitOfWork.run(async (tx) => this.cancelLocked(tx, await this.orders.lockById(tx.manager, yemekKuryeOrderId, provider, providerRestaurantId), note));
  }

  /** Whether the integration has platform orders that are not final yet. */
  hasOpenOrders(integrationId: string): Promise<boolean> {
    return this.unitOfWork.run((tx) => this.orders.hasOpenOrders(tx.manager, integrationId));
  }

  /** Whether our order of this platform (and platform restaurant) exists. */
  existsById(provider: string, yemekKuryeOrderId: string, providerRestaurantId: string): Promise<boolean> {
    return this.unitOfWork.run((tx) => this.orders.exists(tx.manager, yemekKuryeOrderId, provider, providerRestaurantId));
  }

  /**
   * The platform's rider (or the customer) collected the order (a platform's picked-up status
   * ORDER_PICKED_UP): a non-final order moves on to ON_DELIVERY; a repeat changes nothing.
   */
  pickedUpById(provider: string, yemekKuryeOrderId: string, providerRestaurantId: string): Promise<'picked_up' | 'already' | 'unknown'> {
    return this.unitOfWork.run(async (tx) => {
      const order = await this.orders.lockById(tx.manager, yemekKuryeOrderId, provider, providerRestaurantId);
      if (!order) return 'unknown';
      const moved = await this.move(tx, order, ['ON_DELIVERY'], 'PLATFORM_PICKED_UP' satisfies PlatformMoveTrigger);
      if (moved.sequence === order.sequence) return 'already';
      this.logger.log({ yemekKuryeOrderId: order.id, platform: provider, previousStatus: order.status }, 'platform order picked up on the platform');
      return 'picked_up';
    });
  }

  /**
   * The id of this integration's order already received (a retry or replay). The store's order of
   * another integration (the store's integration replaced) or another store's of the restaurant (the
   * restaurant-wide key) is never handed over: refused, logged with both integrations, counted.
   */
  private async knownOrderId(tx: TransactionContext, integration: DirectoryIntegration, platformOrderId: string): Promise<string> {
    const own = await this.orders.ownOrder(tx.manager, integration.platform, integration.providerRestaurantId, platformOrderId);
    if (own?.integrationId === integration.integrationId) return own.id;
    const others = own ? [own.integrationId] : (await this.orders.holders(tx.manager, integration.platform, platformOrderId)).filter((holder) => holder.restaurantId === integration.restaurantId).map((holder) => holder.integrationId);
    this.metrics.collisions.inc({ platform: integration.platform });
    this.logger.warn(
      { platform: integration.platform, platformOrderId, integrationId: integration.integrationId, providerRestaurantId: integration.providerRestaurantId, otherIntegrationIds: others },
      'platform order already received for another integration: refused, not handed over',
    );
    throw new PlatformOrderOfAnotherIntegration(integration.platform);
  }

  /** A new order whose platform order id other stores hold: kept as this store's own, logged with the other integrations, counted. */
  private async noteCollision(tx: TransactionContext, integration: DirectoryIntegration, row: PlatformOrderRow): Promise<void> {
    const others = await this.orders.holders(tx.manager, row.provider, row.orderId, { exceptId: row.id });
    if (others.length === 0) return;
    this.metrics.collisions.inc({ platform: row.provider });
    this.logger.warn(
      {
        platform: row.provider,
        platformOrderId: row.orderId,
        integrationId: integration.integrationId,
        providerRestaurantId: row.providerRestaurantId,
        otherIntegrationIds: others.map((other) => other.integrationId),
        otherProviderRestaurantIds: others.map((other) => other.providerRestaurantId),
      },
      'platform order id already held by another platform store: kept apart as this store\'s own order',
    );
  }

  private async cancelLocked(tx: TransactionContext, order: PlatformOrderRow | undefined, note?: string): Promise<CancellationResult> {
    if (!order) return 'unknown';
    if (isFinalOrderStatus(order.status)) return 'already_final';
    const reason = note?.trim() ? note.trim().slice(0, 500) : `Cancelled on ${order.provider}`;
    await this.move(tx, order, ['CANCELED'], 'PLATFORM_CANCEL' satisfies PlatformMoveTrigger, { cancelReasonId: 'OTHER', canceledBy: 'System', reason });
    this.logger.log({ yemekKuryeOrderId: order.id, platform: order.provider, previousStatus: order.status }, 'platform order cancelled by the platform');
    return 'canceled';
  }

  /**
   * Moves a platform order (locked by the caller) through `path` as `planMoves` plans it: each step's
   * history entry and event in the caller's transaction. Returns the order after the moves.
   */
  private async move(tx: TransactionContext, order: Order, path: OrderStatus[], trigger: string, cancellation?: Cancellation & { reason: string }): Promise<Order> {
    const planned = planMoves(order, path, trigger, cancellation);
    for (const { change, event } of planned.steps) {
      await this.orders.recordMove(tx.manager, order.id, change);
      // A withheld order is not the account's yet: its release announces it as it is then.
      if (!(order as Partial<PlatformOrderRow>).withheld) await tx.publish(event.routingKey, event.payload);
    }
    return planned.order;
  }
}

/** The order's announcement, its items in the restaurant's codes (`items`, resolved by the caller). */
function platformOrderReceivedEvent(row: PlatformOrderRow, details: PlatformOrder['details'], items: MappedOrderItem[]): PlatformOrderReceivedEvent {
  return {
    yemekKuryeOrderId: row.id,
    orderId: row.orderId,
    restaurantId: row.restaurantId,
    provider: row.provider,
    providerRestaurantId: row.providerRestaurantId,
    integrationId: row.integrationId,
    orderNumber: row.orderNumber,
    status: row.status,
    receivedAt: row.receivedAt.toISOString(),
    scheduledDeliveryTime: row.scheduledDeliveryTime?.toISOString() ?? null,
    details: { ...details, items },
  };
}
