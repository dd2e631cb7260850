import type { StatusPushAction } from '@courier/domain';
import type { PlatformOrder } from '../common/platform-adapter';
import { PLATFORM_C_ACCEPT_WARNING_MS, platformCAcceptBy } from './trendyol-go.assumptions';
import type { CredentialCheck, IntegrationCredentials, ParsedPlatformOrder, PlatformAdapter, PlatformCallOutcome, PlatformOrderRef, PollResult } from '../common/platform-adapter';
import type { TrendyolGoClientSettings } from './trendyol-go.client.config';
import { answerOf, checkOfError, classifyResponse, isRetryableStatus, networkAnswer, outcomeOfError, pollResultOfError } from '../common/outcomes';
import { PlatformNetworkError, platformRequest, PlatformResponse, platformUrl, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import {
  PLATFORM_C_CANCEL_REASONS,
  PLATFORM_C_DEFAULT_CANCEL_REASON,
  PLATFORM_C_DEFAULT_PREPARATION_MINUTES,
  PLATFORM_C_MAX_PAGES,
  PLATFORM_C_OUT_OF_ORDER_STATUS,
  PLATFORM_C_PAGE_SIZE,
  PLATFORM_C_RATE_LIMIT_WINDOW_MS,
  PLATFORM_C_SUPPLIER_ID,
  STORE_DELIVERY,
} from './trendyol-go.assumptions';
import { PLATFORM_C } from './trendyol-go.platform';
import { parsePlatformCPackage, PlatformCOrderData } from './trendyol-go.orders';
import { PlatformCAvailability } from './trendyol-go.availability';
import { PlatformCCatalog } from './trendyol-go.catalog';

type Operation = { path: string; body: Record<string, unknown> } | { skip: string } | { refuse: string };

/**
 * PLATFORM_C: Trendyol Go Yemek's integrator API. No session: HTTP Basic with apiKey:secretKey on
 * every call, the supplier in the path, the mandatory `User-Agent: {supplierId} - {integratorName}`,
 * and `x-agentname` / `x-executor-user` as every meal client sends them. Orders are polled
 * (packages modified in a time window, pages of 50).
 */
export class PlatformCAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_C';
  readonly callBudget = PLATFORM_C.callBudget;
  readonly availability = new PlatformCAvailability({ call: (credentials, method, path, json) => this.call(credentials, method, path, json), credentialProblem });
  readonly catalog = new PlatformCCatalog({ call: (credentials, method, path, json) => this.call(credentials, method, path, json), credentialProblem });

  /** The platform's accept-by rule (trendyol-go.assumptions.ts) with this deployment's window. */
  acceptBy(order: PlatformOrder, receivedAt: Date): Date | null {
    return platformCAcceptBy(order, receivedAt, this.config.PLATFORM_C_ACCEPT_WINDOW_MS);
  }

  get acceptanceWarningMs(): number {
    return this.config.PLATFORM_C_ACCEPT_WARNING_MS ?? PLATFORM_C_ACCEPT_WARNING_MS;
  }

  constructor(private readonly config: TrendyolGoClientSettings) {}

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const problem = credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    const operation = this.operationFor(order, action, reason);
    if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
    if ('refuse' in operation) return { kind: 'failed', answer: { httpStatus: null, body: null, error: operation.refuse }, reason: operation.refuse };
    try {
      const response = await this.call(credentials, 'PUT', `${this.packagesPath(credentials)}${operation.path}`, operation.body);
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

  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    const problem = credentialProblem(credentials);
    if (problem) return { result: 'rejected', detail: `PLATFORM_C cannot be called: ${problem}.` };
    // No login exists: a one-package read of the last minute proves key, secret, supplier and store.
    const until = Date.now();
    try {
      const response = await this.listPage(credentials, until - 60_000, until, 0, 1);
      if (response.status >= 200 && response.status < 300) return { result: 'ok', detail: 'PLATFORM_C accepted the API key and secret for this supplier and store.', httpStatus: response.status };
      if (isRetryableStatus(response.status)) return { result: 'unreachable', detail: `PLATFORM_C answered HTTP ${response.status}; try again later.`, httpStatus: response.status };
      return { result: 'rejected', detail: `PLATFORM_C refused the stored credentials (HTTP ${response.status}).`, httpStatus: response.status };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { result: 'unreachable', detail: `PLATFORM_C could not be reached: ${error.message}.` };
      return checkOfError(error);
    }
  }

  /**
   * Every package modified in [sinceMs, untilMs], all pages. A package modified while the pages are
   * read moves to a later page and is listed twice: each id is kept once, in its latest version.
   * The cursor is the window's end (the caller overlaps windows, and orders are unique per package);
   * when the window holds more pages than one poll reads, it is the last modification read, so the
   * next poll goes on from there (the list is ordered by modification time).
   */
  async pollOrders(credentials: IntegrationCredentials, sinceMs: number, untilMs: number): Promise<PollResult> {
    const problem = credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    const byId = new Map<string, { parsed: ParsedPlatformOrder; modifiedAt: number }>();
    const malformed: ParsedPlatformOrder[] = [];
    let cursorMs = untilMs;
    try {
      for (let page = 0; page < PLATFORM_C_MAX_PAGES; page += 1) {
        const response = await this.listPage(credentials, sinceMs, untilMs, page, PLATFORM_C_PAGE_SIZE);
        if (response.status < 200 || response.status >= 300) {
          if (isRetryableStatus(response.status)) return { kind: 'retry', answer: answerOf(response), retryAfterMs: retryAfterMs(response.headers) ?? (response.status === 429 ? PLATFORM_C_RATE_LIMIT_WINDOW_MS : undefined) };
          return { kind: 'failed', answer: answerOf(response), reason: `the package list was refused (HTTP ${response.status})` };
        }
        const body = isRecord(response.body) ? response.body : {};
        const content = Array.isArray(body.content) ? body.content : [];
        for (const entry of content) {
          const parsed = parsePlatformCPackage(entry);
          if (!parsed.ok) {
            malformed.push(parsed);
            continue;
          }
          const modifiedAt = (parsed.order.platformData as Partial<PlatformCOrderData>).packageModificationDate ?? 0;
          const seen = byId.get(parsed.order.platformOrderId);
          if (!seen || modifiedAt >= seen.modifiedAt) byId.set(parsed.order.platformOrderId, { parsed, modifiedAt });
        }
        const totalPages = typeof body.totalPages === 'number' ? body.totalPages : 1;
        if (page + 1 >= totalPages || content.length === 0) break;
        if (page + 1 === PLATFORM_C_MAX_PAGES) cursorMs = Math.max(sinceMs, ...[...byId.values()].map((entry) => entry.modifiedAt));
      }
      return { kind: 'ok', orders: [...[...byId.values()].map((entry) => entry.parsed), ...malformed], cursorMs };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return pollResultOfError(error);
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

  private packagesPath(credentials: IntegrationCredentials): string {
    return `/integrator/order/meal/suppliers/${encodeURIComponent(credentials.settings.supplierId)}/packages`;
  }

  private listPage(credentials: IntegrationCredentials, sinceMs: number, untilMs: number, page: number, size: number): Promise<PlatformResponse> {
    const query = new URLSearchParams({
      storeId: credentials.settings.storeId,
      packageModificationStartDate: String(Math.floor(sinceMs)),
      packageModificationEndDate: String(Math.floor(untilMs)),
      page: String(page),
      size: String(size),
    });
    return this.call(credentials, 'GET', `${this.packagesPath(credentials)}?${query.toString()}`);
  }

  private call(credentials: IntegrationCredentials, method: 'GET' | 'PUT' | 'POST', path: string, json?: unknown): Promise<PlatformResponse> {
    const basic = Buffer.from(`${credentials.secrets.apiKey ?? ''}:${credentials.secrets.secretKey ?? ''}`).toString('base64');
    return platformRequest({
      method,
      url: platformUrl(this.config.PLATFORM_C_BASE_URL, path),
      headers: {
        Authorization: `Basic ${basic}`,
        'User-Agent': `${credentials.settings.supplierId} - ${this.config.PLATFORM_C_INTEGRATOR_NAME}`,
        'x-agentname': this.config.PLATFORM_C_INTEGRATOR_NAME,
        'x-executor-user': this.config.PLATFORM_C_EXECUTOR_USER,
      },
      json,
      timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
    });
  }
}

/**
 * Why the stored credentials cannot make a call, or undefined. integrations-api refuses such values,
 * but a value stored before that rule must fail its own call, not throw out of the caller (a
 * non-Latin-1 supplierId would make node:http throw ERR_INVALID_CHAR on the User-Agent).
 */
function credentialProblem(credentials: IntegrationCredentials): string | undefined {
  if (!PLATFORM_C_SUPPLIER_ID.test(credentials.settings.supplierId ?? '')) return 'the stored supplierId is missing or not a plain identifier (letters, digits, ".", "_", "-")';
  if (!credentials.settings.storeId) return 'the stored storeId is missing';
  return undefined;
}

/** The push's reason when it is one of the documented codes, else the default. */
function cancelReason(reason?: string | null): number {
  const code = Number(reason?.trim());
  return (PLATFORM_C_CANCEL_REASONS as readonly number[]).includes(code) ? code : PLATFORM_C_DEFAULT_CANCEL_REASON;
}
