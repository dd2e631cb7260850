import type { StatusPushAction } from '@courier/domain';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformAnswer, PlatformCallOutcome, PlatformOrder, PlatformOrderRef } from '../common/platform-adapter';
import type { MigrosYemekClientSettings } from './migros-yemek.client.config';
import { checkOfError, isRetryableStatus, networkAnswer, outcomeOfError } from '../common/outcomes';
import { isRecord } from '../common/payload-reader';
import { PlatformNetworkError, platformRequest, PlatformResponse, platformUrl, retryAfterMs } from '../common/platform-http';
import {
  isPlatformDCancelledStatus,
  PLATFORM_D_ACCEPT_WARNING_MS,
  PLATFORM_D_API_KEY_HEADER,
  PLATFORM_D_NEW_ORDER_STATUS,
  PLATFORM_D_NOTIFY_USER,
  PLATFORM_D_ORDER_STATUS,
  PLATFORM_D_PATHS,
  PLATFORM_D_RESTAURANT_DELIVERY,
  PLATFORM_D_STEP_STATUS,
  PLATFORM_D_UNKNOWN_USER_ID,
  platformDAcceptBy,
  PlatformDCipherMode,
  platformDId,
} from './migros-yemek.assumptions';
import { encryptPlatformDBody, isPlatformDEnvelope, openPlatformDValue, platformDCipherMode } from './migros-yemek.crypto';
import { PLATFORM_D } from './migros-yemek.platform';
import { parsePlatformDOrder, PlatformDOrderData } from './migros-yemek.orders';
import { PlatformDAvailability } from './migros-yemek.availability';
import { PlatformDCatalog } from './migros-yemek.catalog';

/** A Migros answer read: HTTP status, the body (decrypted when it came as `{ value }`), and its envelope. */
interface MigrosAnswer {
  response: PlatformResponse;
  body: unknown;
  success?: boolean;
  errorCode?: string;
  errorDetail?: string;
}

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
  readonly availability = new PlatformDAvailability({ get: (credentials, path) => this.call(credentials, 'GET', path), post: (credentials, path, body) => this.post(credentials, path, body) });
  readonly catalog = new PlatformDCatalog({ get: (credentials, path) => this.call(credentials, 'GET', path), post: (credentials, path, body) => this.post(credentials, path, body) });

  /** The platform's accept-by rule (migros-yemek.assumptions.ts) with this deployment's window. */
  acceptBy(order: PlatformOrder, receivedAt: Date): Date | null {
    return platformDAcceptBy(order, receivedAt, this.config.PLATFORM_D_ACCEPT_WINDOW_MS);
  }

  get acceptanceWarningMs(): number {
    return this.config.PLATFORM_D_ACCEPT_WARNING_MS ?? PLATFORM_D_ACCEPT_WARNING_MS;
  }

  constructor(private readonly config: MigrosYemekClientSettings) {}

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const data = order.platformData as Partial<PlatformDOrderData>;
    const ids = { orderId: platformDId(order.platformOrderId), storeId: platformDId(credentials.providerRestaurantId) };
    try {
      if (action === 'CANCEL' || action === 'REJECT') return await this.cancel(credentials, order, ids, reason);
      if ((action === 'HANDOVER' || action === 'DELIVER') && data.deliveryProvider && data.deliveryProvider !== PLATFORM_D_RESTAURANT_DELIVERY) {
        return { kind: 'skipped', reason: `Migros' own courier delivers this order (deliveryProvider ${data.deliveryProvider}): Delivery and Completed are the restaurant courier's steps` };
      }
      return outcomeOf(await this.post(credentials, PLATFORM_D_PATHS.updateOrderStatus, { ...ids, orderStatus: PLATFORM_D_STEP_STATUS[action] }));
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return outcomeOfError(error);
    }
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
    let answer: MigrosAnswer;
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

  /**
   * A cancellation: the reason id from GetCancelReasons, then Rejected while Migros still has the
   * order NEW_PENDING (GetOrderDetail), else CancelOrder (meant for approved orders).
   */
  private async cancel(credentials: IntegrationCredentials, order: PlatformOrderRef, ids: { orderId: number | string; storeId: number | string }, reason?: string | null): Promise<PlatformCallOutcome> {
    const reasons = await this.call(credentials, 'GET', PLATFORM_D_PATHS.cancelReasons);
    if (!succeeded(reasons)) return outcomeOf(reasons);
    const cancelReasonId = chooseCancelReason(reasons.body, reason);
    if (cancelReasonId === undefined) return { kind: 'failed', answer: answerOf(reasons), reason: 'PLATFORM_D offered no cancel reason (GetCancelReasons)' };
    const query = `?orderId=${encodeURIComponent(order.platformOrderId)}&storeId=${encodeURIComponent(credentials.providerRestaurantId)}`;
    const detail = await this.call(credentials, 'GET', `${PLATFORM_D_PATHS.orderDetail}${query}`);
    if (!succeeded(detail)) return outcomeOf(detail);
    const status = isRecord(detail.body) && isRecord(detail.body.data) ? detail.body.data.status : undefined;
    if (status === PLATFORM_D_NEW_ORDER_STATUS) {
      return outcomeOf(await this.post(credentials, PLATFORM_D_PATHS.updateOrderStatus, { ...ids, orderStatus: PLATFORM_D_ORDER_STATUS.REJECTED, cancelReasonId }));
    }
    // Both ids: M-go sends storeId, AJ userId (the customer's id), M-hp both (migros-yemek.assumptions.ts).
    const userId = (order.platformData as Partial<PlatformDOrderData>).userId;
    return outcomeOf(
      await this.post(credentials, PLATFORM_D_PATHS.cancelOrder, { ...ids, userId: userId ? platformDId(userId) : PLATFORM_D_UNKNOWN_USER_ID, notifyUser: PLATFORM_D_NOTIFY_USER, cancelReasonId }),
    );
  }

  private post(credentials: IntegrationCredentials, path: string, body: Record<string, unknown>): Promise<MigrosAnswer> {
    return this.call(credentials, 'POST', path, encryptPlatformDBody(body, this.encryptionKey(credentials), this.cipherMode(credentials)));
  }

  private async call(credentials: IntegrationCredentials, method: 'GET' | 'POST', path: string, json?: unknown): Promise<MigrosAnswer> {
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

/** The answer with an encrypted `{ value }` body opened in either mode (M-py, AJ decrypt such answers); unreadable ones stay as they came. */
function readAnswer(response: PlatformResponse, key: string, mode: PlatformDCipherMode): MigrosAnswer {
  let body = response.body;
  if (isPlatformDEnvelope(body)) body = openPlatformDValue(body.value, key, mode)?.json ?? body;
  const envelope = isRecord(body) ? body : {};
  const error = isRecord(envelope.errorMessage) ? envelope.errorMessage : {};
  return {
    response,
    body,
    success: typeof envelope.success === 'boolean' ? envelope.success : undefined,
    errorCode: error.errorCode === undefined || error.errorCode === null ? undefined : String(error.errorCode),
    errorDetail: typeof error.errorDetail === 'string' ? error.errorDetail : typeof error.errorTitle === 'string' ? error.errorTitle : undefined,
  };
}

function answerOf(answer: MigrosAnswer): PlatformAnswer {
  return { httpStatus: answer.response.status, body: answer.body };
}

function succeeded(answer: MigrosAnswer): boolean {
  return answer.response.status >= 200 && answer.response.status < 300 && answer.success !== false;
}

/**
 * Done on 2xx unless the envelope says `success: false`; retry on 408, 429 and 5xx; anything else
 * final, `success: false` included (M documents no transient errorCode).
 */
function outcomeOf(answer: MigrosAnswer): PlatformCallOutcome {
  const status = answer.response.status;
  if (succeeded(answer)) return { kind: 'done', answer: answerOf(answer) };
  if (isRetryableStatus(status)) return { kind: 'retry', answer: answerOf(answer), retryAfterMs: retryAfterMs(answer.response.headers) };
  const why = answer.errorCode ? `${answer.errorCode}${answer.errorDetail ? `: ${answer.errorDetail}` : ''}` : `HTTP ${status}`;
  if (status === 401 || status === 403) return { kind: 'failed', answer: answerOf(answer), reason: `PLATFORM_D refused the API key (${why})` };
  return { kind: 'failed', answer: answerOf(answer), reason: `PLATFORM_D refused the call (${why})` };
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
