import type { IntegrationCredentials, PlatformCallOutcome } from '../common/platform-adapter';
import type {
  ProductAvailabilityChange,
  ProductAvailabilityPlan,
  PlatformAvailability,
  StoreAvailabilityPlan,
  StoreAvailabilityRequest,
  StoreReadOutcome,
} from '../common/platform-availability';
import { answerOf, classifyResponse, networkAnswer, outcomeOfError } from '../common/outcomes';
import { PlatformNetworkError, PlatformResponse } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import {
  PLATFORM_C_CONCURRENT_CHANGE_RETRY_MS,
  PLATFORM_C_CONCURRENT_CHANGE_STATUS,
  PLATFORM_C_PRODUCT_STATUS,
  PLATFORM_C_RATE_LIMIT_WINDOW_MS,
  PLATFORM_C_STORE_STATUS,
  PLATFORM_C_STORES_MAX_PAGES,
  PLATFORM_C_STORES_PAGE_SIZE,
  platformCProductStatusPath,
  platformCStoresPath,
  platformCStoreStatusPath,
} from './trendyol-go.assumptions';

/** The adapter's machinery: a call with Basic auth and the mandatory headers, and why stored credentials cannot make one. */
export interface PlatformCCalls {
  call(credentials: IntegrationCredentials, method: 'GET' | 'PUT' | 'POST', path: string, json?: unknown): Promise<PlatformResponse>;
  credentialProblem(credentials: IntegrationCredentials): string | undefined;
}

/**
 * PLATFORM_C's availability (trendyol-go.assumptions.ts, "Availability"): the store OPEN or CLOSED
 * (no timed close: the dispatcher's OPEN at `until` ends a close; no busy mode), read back from the
 * supplier's store list (`workingStatus`), and a product ACTIVE or PASSIVE (409, a concurrent change
 * of the store, is retried).
 */
export class PlatformCAvailability implements PlatformAvailability {
  constructor(private readonly calls: PlatformCCalls) {}

  planStore(request: StoreAvailabilityRequest, now: Date): StoreAvailabilityPlan {
    if (request.until && request.until.getTime() <= now.getTime())
      return { kind: 'unsupported', code: 'DURATION_UNSUPPORTED', message: '`until` is not in the future.' };
    switch (request.state) {
      case 'OPEN':
        return { kind: 'send', state: 'OPEN', params: { status: PLATFORM_C_STORE_STATUS.OPEN } };
      case 'CLOSED': {
        const params = { status: PLATFORM_C_STORE_STATUS.CLOSED };
        if (!request.until) return { kind: 'send', state: 'CLOSED', params };
        return {
          kind: 'send',
          state: 'CLOSED',
          params,
          instead: {
            code: 'REOPENED_BY_SUITE',
            message: 'PLATFORM_C has no timed close: the store is closed now and opened again by this suite at `until`.',
          },
        };
      }
      case 'BUSY':
        return {
          kind: 'unsupported',
          code: 'BUSY_MODE_UNSUPPORTED',
          message:
            'PLATFORM_C has no busy mode (its average delivery time is a standing setting for restaurant-delivered orders only): close the store instead, or keep it open.',
        };
    }
  }

  async setStore(
    credentials: IntegrationCredentials,
    plan: Extract<StoreAvailabilityPlan, { kind: 'send' }>,
  ): Promise<PlatformCallOutcome> {
    return this.send(credentials, platformCStoreStatusPath(credentials.settings.supplierId, credentials.settings.storeId), {
      status: plan.params.status,
    });
  }

  /** The store's `workingStatus` in the supplier's store list (all pages until it is found). */
  async readStore(credentials: IntegrationCredentials): Promise<StoreReadOutcome> {
    const problem = this.calls.credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    const storeId = credentials.settings.storeId;
    let last: PlatformResponse | undefined;
    try {
      for (let page = 0; page < PLATFORM_C_STORES_MAX_PAGES; page += 1) {
        const query = new URLSearchParams({ page: String(page), size: String(PLATFORM_C_STORES_PAGE_SIZE) });
        const response = await this.calls.call(
          credentials,
          'GET',
          `${platformCStoresPath(credentials.settings.supplierId)}?${query.toString()}`,
        );
        last = response;
        const outcome = outcomeOf(response);
        if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
        if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
        const body = isRecord(response.body) ? response.body : {};
        const restaurants = Array.isArray(body.restaurants) ? body.restaurants.filter(isRecord) : [];
        const store = restaurants.find((entry) => String(entry.id) === storeId);
        if (store) {
          const status = store.workingStatus;
          if (status === PLATFORM_C_STORE_STATUS.OPEN || status === PLATFORM_C_STORE_STATUS.CLOSED)
            return { kind: 'ok', state: status, answer: { httpStatus: response.status, body: store } };
          return {
            kind: 'failed',
            answer: { httpStatus: response.status, body: store },
            reason: `PLATFORM_C answered a workingStatus this suite does not know (${JSON.stringify(status ?? null)})`,
          };
        }
        const totalPages = typeof body.totalPages === 'number' ? body.totalPages : undefined;
        if (restaurants.length < PLATFORM_C_STORES_PAGE_SIZE || (totalPages !== undefined && page + 1 >= totalPages)) break;
      }
      return {
        kind: 'failed',
        answer: last ? answerOf(last) : { httpStatus: null, body: null },
        reason: `store ${storeId} is not in PLATFORM_C's store list of supplier ${credentials.settings.supplierId}`,
      };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      const outcome = outcomeOfError(error);
      if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
      if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
      throw error;
    }
  }

  planProduct(change: ProductAvailabilityChange, now: Date): ProductAvailabilityPlan {
    if (change.until && change.until.getTime() <= now.getTime())
      return { kind: 'unsupported', code: 'DURATION_UNSUPPORTED', message: '`until` is not in the future.' };
    // No timed sold-out on the platform: the dispatcher's timer sends ACTIVE at `until`.
    return { kind: 'send', params: { status: change.available ? PLATFORM_C_PRODUCT_STATUS.ACTIVE : PLATFORM_C_PRODUCT_STATUS.PASSIVE } };
  }

  setProduct(
    credentials: IntegrationCredentials,
    change: ProductAvailabilityChange,
    plan: Extract<ProductAvailabilityPlan, { kind: 'send' }>,
  ): Promise<PlatformCallOutcome> {
    return this.send(
      credentials,
      platformCProductStatusPath(credentials.settings.supplierId, credentials.settings.storeId, change.platformProductId),
      { status: plan.params.status },
    );
  }

  private async send(credentials: IntegrationCredentials, path: string, body: Record<string, unknown>): Promise<PlatformCallOutcome> {
    const problem = this.calls.credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    try {
      return outcomeOf(await this.calls.call(credentials, 'PUT', path, body));
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return outcomeOfError(error);
    }
  }
}

/** 2xx done; 409 (a concurrent change of the store) and 429 (the endpoint's 10 s window) retry; 5xx retry; other 4xx final. */
function outcomeOf(response: PlatformResponse): PlatformCallOutcome {
  if (response.status === PLATFORM_C_CONCURRENT_CHANGE_STATUS)
    return { kind: 'retry', answer: answerOf(response), retryAfterMs: PLATFORM_C_CONCURRENT_CHANGE_RETRY_MS };
  const outcome = classifyResponse(response);
  if (outcome.kind === 'retry' && response.status === 429)
    return { ...outcome, retryAfterMs: outcome.retryAfterMs ?? PLATFORM_C_RATE_LIMIT_WINDOW_MS };
  if (outcome.kind === 'failed')
    return { ...outcome, reason: `PLATFORM_C refused the call (HTTP ${response.status}${describe(response.body)})` };
  return outcome;
}

/** The platform's own message (`errors[].message`), for the operator. */
function describe(body: unknown): string {
  const errors =
    isRecord(body) && Array.isArray(body.errors)
      ? body.errors
          .filter(isRecord)
          .map((entry) => entry.message)
          .filter((message): message is string => typeof message === 'string')
      : [];
  return errors.length > 0 ? `: ${errors.join('; ')}` : '';
}
