import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformOrder } from '../common/platform-adapter';
import type { PlatformOrders } from '../common/platform-orders';
import type { MigrosYemekClientSettings } from './migros-yemek.client.config';
import { checkOfError, isRetryableStatus } from '../common/outcomes';
import { isRecord } from '../common/payload-reader';
import { PlatformNetworkError, platformRequest, platformUrl } from '../common/platform-http';
import {
  isPlatformDCancelledStatus,
  PLATFORM_D_ACCEPT_WARNING_MS,
  PLATFORM_D_API_KEY_HEADER,
  PLATFORM_D_PATHS,
  platformDAcceptBy,
  PlatformDCipherMode,
} from './migros-yemek.assumptions';
import { encryptPlatformDBody, platformDCipherMode } from './migros-yemek.crypto';
import { PLATFORM_D } from './migros-yemek.platform';
import { parsePlatformDOrder } from './migros-yemek.orders';
import { PlatformDAnswerRead, PlatformDCalls, readAnswer, succeeded } from './migros-yemek.answers';
import { PlatformDStatus } from './migros-yemek.status';
import { PlatformDAvailability } from './migros-yemek.availability';
import { PlatformDCatalog } from './migros-yemek.catalog';

/**
 * What Migros says of an order, read with the store's own key (GetOrderDetail): the truth an
 * unauthenticated webhook is checked against.
 * - found: Migros shows the order for this store; `order` is parsed from Migros' answer, `status` its
 *   read status, `cancelled` whether that status is a cancellation.
 * - unknown: Migros refused (no such order for this store, a refused key, an unreadable order).
 * - unavailable: network error, 408, 429 or 5xx: ask again later.
 */
export type PlatformDOrderReadBack =
  | { kind: 'found'; order: PlatformOrder; status?: string; cancelled: boolean; httpStatus: number }
  | { kind: 'unknown'; detail: string; httpStatus?: number }
  | { kind: 'unavailable'; detail: string; httpStatus?: number };

/**
 * PLATFORM_D: Migros Yemek's gourmet API (migros-yemek.assumptions.ts). Every call carries the store's
 * API key in `XApiKey`; POST bodies go encrypted as `{ value }`; answers are
 * `{ data, success, errorMessage? }`. No login, no session.
 */
export class PlatformDAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_D';
  readonly callBudget = PLATFORM_D.callBudget;
  readonly orders: PlatformOrders;
  readonly status: PlatformDStatus;
  readonly availability: PlatformDAvailability;
  readonly catalog: PlatformDCatalog;

  constructor(private readonly config: MigrosYemekClientSettings) {
    const calls: PlatformDCalls = { get: (credentials, path) => this.call(credentials, 'GET', path), post: (credentials, path, body) => this.post(credentials, path, body) };
    // The platform's accept-by rule (migros-yemek.assumptions.ts) with this deployment's window.
    this.orders = {
      acceptBy: (order, receivedAt) => platformDAcceptBy(order, receivedAt, config.PLATFORM_D_ACCEPT_WINDOW_MS),
      acceptanceWarningMs: config.PLATFORM_D_ACCEPT_WARNING_MS ?? PLATFORM_D_ACCEPT_WARNING_MS,
    };
    this.status = new PlatformDStatus(calls);
    this.availability = new PlatformDAvailability(calls);
    this.catalog = new PlatformDCatalog(calls);
  }

  /** GetStoreDetail with the key: the store it names must be the integration's (M-go reads it for warehouseId). */
  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    try {
      const answer = await this.call(credentials, 'GET', PLATFORM_D_PATHS.storeDetail);
      const status = answer.response.status;
      if (isRetryableStatus(status)) return { result: 'unreachable', detail: `PLATFORM_D answered HTTP ${status}; try again later.`, httpStatus: status };
      if (status < 200 || status >= 300 || answer.success === false) {
        return { result: 'rejected', detail: `PLATFORM_D refused the stored API key (HTTP ${status}${answer.errorCode ? `, ${answer.errorCode}` : ''}).`, httpStatus: status };
      }
      const store = isRecord(answer.body) && isRecord(answer.body.data) ? answer.body.data : {};
      const storeId = store.id === undefined ? undefined : String(store.id);
      if (storeId !== undefined && storeId !== credentials.providerRestaurantId) {
        return { result: 'wrong_restaurant', detail: `The API key belongs to Migros store ${storeId}, not to ${credentials.providerRestaurantId}.`, httpStatus: status, platformRestaurantId: storeId };
      }
      const group = credentials.settings.providerMerchantId;
      if (store.storeGroupId !== undefined && group && String(store.storeGroupId) !== group) {
        return { result: 'wrong_restaurant', detail: `The store belongs to Migros store group ${String(store.storeGroupId)}, not to ${group} (providerMerchantId).`, httpStatus: status, platformRestaurantId: storeId };
      }
      const inactive = store.integrationIsActive === false ? ' Migros reports the integration as not active for this store.' : '';
      return { result: 'ok', detail: `PLATFORM_D accepted the API key for store ${storeId ?? credentials.providerRestaurantId}.${inactive}`, httpStatus: status, platformRestaurantId: storeId };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { result: 'unreachable', detail: `PLATFORM_D could not be reached: ${error.message}.` };
      return checkOfError(error);
    }
  }

  /** GetOrderDetail of one order of the integration's store, read with the store's own key (no budget booking: one call per webhook). */
  async readOrder(credentials: IntegrationCredentials, platformOrderId: string): Promise<PlatformDOrderReadBack> {
    const query = `?orderId=${encodeURIComponent(platformOrderId)}&storeId=${encodeURIComponent(credentials.providerRestaurantId)}`;
    let answer: PlatformDAnswerRead;
    try {
      answer = await this.call(credentials, 'GET', `${PLATFORM_D_PATHS.orderDetail}${query}`);
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'unavailable', detail: `PLATFORM_D could not be reached: ${error.message}` };
      throw error;
    }
    const httpStatus = answer.response.status;
    if (isRetryableStatus(httpStatus)) return { kind: 'unavailable', detail: `PLATFORM_D answered HTTP ${httpStatus}`, httpStatus };
    if (!succeeded(answer)) return { kind: 'unknown', detail: `PLATFORM_D does not show order ${platformOrderId} for store ${credentials.providerRestaurantId} (HTTP ${httpStatus}${answer.errorCode ? `, ${answer.errorCode}` : ''})`, httpStatus };
    const data = isRecord(answer.body) ? answer.body.data : undefined;
    const parsed = parsePlatformDOrder(data);
    if (!parsed.ok || parsed.kind !== 'order') return { kind: 'unknown', detail: `PLATFORM_D's order ${platformOrderId} could not be read`, httpStatus };
    if (parsed.order.platformOrderId !== platformOrderId || parsed.storeId !== credentials.providerRestaurantId) {
      return { kind: 'unknown', detail: `PLATFORM_D answered with order ${parsed.order.platformOrderId} of store ${parsed.storeId}`, httpStatus };
    }
    const status = isRecord(data) && typeof data.status === 'string' ? data.status : undefined;
    return { kind: 'found', order: parsed.order, status, cancelled: isPlatformDCancelledStatus(status) || (isRecord(data) && data.isCancelled === true), httpStatus };
  }

  private post(credentials: IntegrationCredentials, path: string, body: Record<string, unknown>): Promise<PlatformDAnswerRead> {
    return this.call(credentials, 'POST', path, encryptPlatformDBody(body, this.encryptionKey(credentials), this.cipherMode(credentials)));
  }

  private async call(credentials: IntegrationCredentials, method: 'GET' | 'POST', path: string, json?: unknown): Promise<PlatformDAnswerRead> {
    const response = await platformRequest({
      method,
      url: platformUrl(this.config.PLATFORM_D_BASE_URL, path),
      // M-go sends the JSON content type on every call, GETs (which carry no body) included.
      headers: { [PLATFORM_D_API_KEY_HEADER]: credentials.secrets.apiKey ?? '', 'Content-Type': 'application/json' },
      json,
      timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
    });
    return readAnswer(response, this.encryptionKey(credentials), this.cipherMode(credentials));
  }

  /** The integration's encryptionMode when set, else the deployment's (PLATFORM_D_CIPHER). */
  cipherMode(credentials: IntegrationCredentials): PlatformDCipherMode {
    return platformDCipherMode(credentials.settings.encryptionMode) ?? this.config.PLATFORM_D_ENCRYPTION_MODE;
  }

  /** The integrator-wide secret when configured, else the store's API key (both M clients fall back to it). */
  encryptionKey(credentials: IntegrationCredentials): string {
    return this.config.PLATFORM_D_SECRET_KEY ?? credentials.secrets.apiKey ?? '';
  }
}

