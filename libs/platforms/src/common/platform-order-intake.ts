import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import type { BudgetedCall } from './call-budget';
import type { IntegrationCredentials, PlatformOrder } from './platform-adapter';

/**
 * An integration as a platform's inbound pieces see it. The port hands back only integrations it
 * returned itself, so the app may keep more on them (encrypted secrets, its restaurant).
 */
export interface InboundIntegration {
  integrationId: string;
  platform: string;
  providerRestaurantId: string;
  isActive: boolean;
  accountActive: boolean;
  deleted?: boolean;
}

export interface ReceivedOrder {
  yemekKuryeOrderId: string;
  /** False when the platform order was already known (a retry or replay): nothing was written. */
  created: boolean;
}

/** `ambiguous`: no store named and several stores hold the platform order id; nothing cancelled. */
export type CancellationResult = 'canceled' | 'already_final' | 'unknown' | 'ambiguous';

/** A store's open/closed period as the platform reported it. */
export interface VendorClosure {
  reason: string;
  start: string;
  end: string | null;
  changeable: boolean;
}

/**
 * A platform order that another integration already holds for this store (an integration replaced)
 * or for another store of the restaurant: refused (409), never answered with that integration's
 * order. Callers that are not HTTP (pollers) skip the order.
 */
export class PlatformOrderOfAnotherIntegration extends ProblemException {
  constructor(platform: string) {
    super(409, ErrorCode.PlatformOrderOfAnotherIntegration, `This ${platform} order was received for another integration of this platform store or restaurant; it is not handed to this one.`);
  }
}

/**
 * The port through which a platform's controllers and pollers reach the app that owns the orders,
 * the integrations and their tables (status-dispatcher provides it). An abstract class so that it is
 * its own injection token.
 */
export abstract class PlatformOrderIntake {
  /** The one live integration holding a platform restaurant, active or not (a read model race: 503). */
  abstract forPlatformRestaurant(platform: string, providerRestaurantId: string): Promise<InboundIntegration | undefined>;
  /** Whether integrations since deleted or displaced held this platform restaurant. */
  abstract formerlyHeld(platform: string, providerRestaurantId: string): Promise<boolean>;
  abstract integrationById(integrationId: string): Promise<InboundIntegration | undefined>;
  abstract activeIntegrationIds(platform: string): Promise<string[]>;
  /** The integration's credentials, secrets decrypted; throws SecretDecryptionError when a key is missing. */
  abstract credentials(integration: InboundIntegration): IntegrationCredentials;

  /** The order becomes an order of the integration's restaurant, once whatever the platform repeats; PlatformOrderOfAnotherIntegration when another integration holds it. */
  abstract receive(integration: InboundIntegration, order: PlatformOrder): Promise<ReceivedOrder>;
  /** A cancellation by the platform's order id, of one store (without one: only an id one store holds). */
  abstract cancel(platform: string, platformOrderId: string, note?: string, providerRestaurantId?: string): Promise<CancellationResult>;
  /** A cancellation by our order id and the platform's restaurant. */
  abstract cancelById(platform: string, yemekKuryeOrderId: string, providerRestaurantId: string, note?: string): Promise<CancellationResult>;
  /** The platform's rider (or the customer) collected the order: a non-final order moves on to ON_DELIVERY. */
  abstract pickedUpById(platform: string, yemekKuryeOrderId: string, providerRestaurantId: string): Promise<'picked_up' | 'already' | 'unknown'>;
  abstract existsById(platform: string, yemekKuryeOrderId: string, providerRestaurantId: string): Promise<boolean>;
  /** Whether the integration has platform orders that are not final yet. */
  abstract hasOpenOrders(integrationId: string): Promise<boolean>;

  /** Keeps a platform's test order apart (never an order of the courier core); our id of it. */
  abstract receiveTestOrder(integration: InboundIntegration, order: PlatformOrder): Promise<string>;
  /** A status of a test order (by our id); false when there is no such test order. */
  abstract testOrderStatus(platform: string, testOrderId: string, providerRestaurantId: string, status: string, message: string | undefined): Promise<boolean>;
  /** The platform's open/closed state of the store: open unless a closure covers now. */
  abstract recordAvailability(integration: InboundIntegration, closures: VendorClosure[], platformTimestamp: Date | null): Promise<{ open: boolean }>;

  /** A polled platform's cursor of the integration (ms), if any. */
  abstract pollCursor(integrationId: string): Promise<number | undefined>;
  abstract savePollCursor(integrationId: string, cursorMs: number, error: string | null): Promise<void>;

  /** Books a call in the platform's call budget if it has room now: false when it has none, undefined when the call is not budgeted. */
  abstract bookCallNow(platform: string, credentials: IntegrationCredentials, call: BudgetedCall): Promise<boolean | undefined>;
}
