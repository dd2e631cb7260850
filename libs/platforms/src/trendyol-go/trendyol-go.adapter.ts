import type { CredentialCheck, IntegrationCredentials, ParsedPlatformOrder, PlatformAdapter, PollResult } from '../common/platform-adapter';
import type { PlatformOrders } from '../common/platform-orders';
import type { TrendyolGoClientSettings } from './trendyol-go.client.config';
import { answerOf, checkOfError, isRetryableStatus, networkAnswer, pollResultOfError } from '../common/outcomes';
import { PlatformNetworkError, platformRequest, PlatformResponse, platformUrl, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import {
  PLATFORM_C_ACCEPT_WARNING_MS,
  PLATFORM_C_MAX_PAGES,
  PLATFORM_C_PAGE_SIZE,
  PLATFORM_C_RATE_LIMIT_WINDOW_MS,
  PLATFORM_C_SUPPLIER_ID,
  platformCAcceptBy,
  platformCPackagesPath,
} from './trendyol-go.assumptions';
import { PLATFORM_C } from './trendyol-go.platform';
import { parsePlatformCPackage, PlatformCOrderData } from './trendyol-go.orders';
import { PlatformCStatus } from './trendyol-go.status';
import { PlatformCAvailability, PlatformCCalls } from './trendyol-go.availability';
import { PlatformCCatalog } from './trendyol-go.catalog';

/**
 * PLATFORM_C: Trendyol Go Yemek's integrator API. No session: HTTP Basic with apiKey:secretKey on
 * every call, the supplier in the path, the mandatory `User-Agent: {supplierId} - {integratorName}`,
 * and `x-agentname` / `x-executor-user` as every meal client sends them. Orders are polled
 * (packages modified in a time window, pages of 50). Its capabilities (trendyol-go.status.ts,
 * trendyol-go.availability.ts, trendyol-go.catalog.ts) make their calls through it.
 */
export class PlatformCAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_C';
  readonly callBudget = PLATFORM_C.callBudget;
  readonly orders: PlatformOrders;
  readonly status: PlatformCStatus;
  readonly availability: PlatformCAvailability;
  readonly catalog: PlatformCCatalog;

  constructor(private readonly config: TrendyolGoClientSettings) {
    const calls: PlatformCCalls = { call: (credentials, method, path, json) => this.call(credentials, method, path, json), credentialProblem };
    // The platform's accept-by rule (trendyol-go.assumptions.ts) with this deployment's window.
    this.orders = {
      acceptBy: (order, receivedAt) => platformCAcceptBy(order, receivedAt, config.PLATFORM_C_ACCEPT_WINDOW_MS),
      acceptanceWarningMs: config.PLATFORM_C_ACCEPT_WARNING_MS ?? PLATFORM_C_ACCEPT_WARNING_MS,
    };
    this.status = new PlatformCStatus(calls);
    this.availability = new PlatformCAvailability(calls);
    this.catalog = new PlatformCCatalog(calls);
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

  private listPage(credentials: IntegrationCredentials, sinceMs: number, untilMs: number, page: number, size: number): Promise<PlatformResponse> {
    const query = new URLSearchParams({
      storeId: credentials.settings.storeId,
      packageModificationStartDate: String(Math.floor(sinceMs)),
      packageModificationEndDate: String(Math.floor(untilMs)),
      page: String(page),
      size: String(size),
    });
    return this.call(credentials, 'GET', `${platformCPackagesPath(credentials.settings.supplierId)}?${query.toString()}`);
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

