import type { StatusPushAction } from '@courier/domain';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformCallOutcome, PlatformOrderRef, PollResult } from '../platform-adapter';
import type { PlatformClientConfig } from '../platform-client.config';
import { answerOf, classifyResponse, isRetryableStatus, networkAnswer } from '../common/outcomes';
import { PlatformNetworkError, platformRequest, PlatformResponse, platformUrl, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { PLATFORM_C_CALL_BUDGET, PLATFORM_C_CANCEL_REASONS, PLATFORM_C_DEFAULT_PREPARATION_MINUTES, PLATFORM_C_MAX_PAGES, PLATFORM_C_PAGE_SIZE, STORE_DELIVERY } from './platform-c.assumptions';
import { parsePlatformCPackage, PlatformCOrderData } from './platform-c.orders';

type Operation = { path: string; body: Record<string, unknown> } | { skip: string };

/**
 * PLATFORM_C: Trendyol Go Yemek's integrator API. No session: HTTP Basic with apiKey:secretKey on
 * every call, the supplier in the path, and the mandatory `User-Agent: {supplierId} - {integratorName}`.
 * Orders are polled (packages modified in a time window).
 */
export class PlatformCAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_C';
  readonly callBudget = PLATFORM_C_CALL_BUDGET;

  constructor(private readonly config: PlatformClientConfig) {}

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const operation = this.operationFor(order, action, reason);
    if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
    try {
      return classifyResponse(await this.call(credentials, 'PUT', `${this.packagesPath(credentials)}${operation.path}`, operation.body));
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      throw error;
    }
  }

  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    // No login exists: a one-package read of the last minute proves key, secret, supplier and store.
    const until = Date.now();
    try {
      const response = await this.listPage(credentials, until - 60_000, until, 0, 1);
      if (response.status >= 200 && response.status < 300) return { result: 'ok', detail: 'PLATFORM_C accepted the API key and secret for this supplier and store.', httpStatus: response.status };
      if (isRetryableStatus(response.status)) return { result: 'unreachable', detail: `PLATFORM_C answered HTTP ${response.status}; try again later.`, httpStatus: response.status };
      return { result: 'rejected', detail: `PLATFORM_C refused the stored credentials (HTTP ${response.status}).`, httpStatus: response.status };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { result: 'unreachable', detail: `PLATFORM_C could not be reached: ${error.message}.` };
      throw error;
    }
  }

  async pollOrders(credentials: IntegrationCredentials, sinceMs: number, untilMs: number): Promise<PollResult> {
    const orders: PollResult & { kind: 'ok' } = { kind: 'ok', orders: [], cursorMs: untilMs };
    try {
      for (let page = 0; page < PLATFORM_C_MAX_PAGES; page += 1) {
        const response = await this.listPage(credentials, sinceMs, untilMs, page, PLATFORM_C_PAGE_SIZE);
        if (response.status < 200 || response.status >= 300) {
          if (isRetryableStatus(response.status)) return { kind: 'retry', answer: answerOf(response), retryAfterMs: retryAfterMs(response.headers) };
          return { kind: 'failed', answer: answerOf(response), reason: `the package list was refused (HTTP ${response.status})` };
        }
        const body = isRecord(response.body) ? response.body : {};
        const content = Array.isArray(body.content) ? body.content : [];
        orders.orders.push(...content.map(parsePlatformCPackage));
        const totalPages = typeof body.totalPages === 'number' ? body.totalPages : 1;
        if (page + 1 >= totalPages || content.length === 0) break;
      }
      return orders;
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      throw error;
    }
  }

  private operationFor(order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Operation {
    const data = order.platformData as Partial<PlatformCOrderData>;
    const packageId = Number.isSafeInteger(Number(order.platformOrderId)) ? Number(order.platformOrderId) : order.platformOrderId;
    const ownCourier = data.deliveryType === STORE_DELIVERY;
    switch (action) {
      case 'VERIFY':
        return { path: '/picked', body: { packageId, preparationTime: data.preparationTime ?? PLATFORM_C_DEFAULT_PREPARATION_MINUTES } };
      case 'PREPARE':
        return { path: '/invoiced', body: { packageId } };
      case 'HANDOVER':
        return ownCourier ? { path: `/${encodeURIComponent(order.platformOrderId)}/manual-shipped`, body: {} } : { skip: 'the platform\'s courier carries this package (deliveryType GO): manual-shipped is for STORE delivery only' };
      case 'DELIVER':
        return ownCourier ? { path: `/${encodeURIComponent(order.platformOrderId)}/manual-delivered`, body: {} } : { skip: 'the platform\'s courier delivers this package (deliveryType GO) and reports it' };
      case 'CANCEL':
      case 'REJECT':
        return { path: '/unsupplied', body: { packageId, itemIdList: data.itemIds ?? [], reasonId: cancelReason(reason) } };
    }
  }

  private packagesPath(credentials: IntegrationCredentials): string {
    return `/integrator/order/meal/suppliers/${encodeURIComponent(credentials.settings.supplierId ?? '')}/packages`;
  }

  private listPage(credentials: IntegrationCredentials, sinceMs: number, untilMs: number, page: number, size: number): Promise<PlatformResponse> {
    const query = new URLSearchParams({
      storeId: credentials.settings.storeId ?? '',
      packageModificationStartDate: String(Math.floor(sinceMs)),
      packageModificationEndDate: String(Math.floor(untilMs)),
      page: String(page),
      size: String(size),
    });
    return this.call(credentials, 'GET', `${this.packagesPath(credentials)}?${query.toString()}`);
  }

  private call(credentials: IntegrationCredentials, method: 'GET' | 'PUT', path: string, json?: unknown): Promise<PlatformResponse> {
    const basic = Buffer.from(`${credentials.secrets.apiKey ?? ''}:${credentials.secrets.secretKey ?? ''}`).toString('base64');
    return platformRequest({
      method,
      url: platformUrl(this.config.PLATFORM_C_BASE_URL, path),
      headers: { Authorization: `Basic ${basic}`, 'User-Agent': `${credentials.settings.supplierId ?? ''} - ${this.config.PLATFORM_C_INTEGRATOR_NAME}` },
      json,
      timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
    });
  }
}

/** The push's reason when it is one of the documented codes, else the first code. */
function cancelReason(reason?: string | null): number {
  const code = Number(reason?.trim());
  return (PLATFORM_C_CANCEL_REASONS as readonly number[]).includes(code) ? code : PLATFORM_C_CANCEL_REASONS[0];
}
