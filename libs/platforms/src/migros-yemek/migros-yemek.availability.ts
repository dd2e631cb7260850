import type { IntegrationCredentials, PlatformAnswer, PlatformCallOutcome } from '../common/platform-adapter';
import type {
  PlatformAvailability,
  ProductAvailabilityChange,
  ProductAvailabilityPlan,
  StoreAvailabilityPlan,
  StoreAvailabilityRequest,
  StoreReadOutcome,
} from '../common/platform-availability';
import { outcomeOfError, pollResultOfError } from '../common/outcomes';
import { isRecord } from '../common/payload-reader';
import { answerOf, outcomeOf, PlatformDCalls, succeeded } from './migros-yemek.answers';
import { PLATFORM_D_AVAILABILITY_PATHS, PLATFORM_D_NEXT_SHIFT_OPTION, PLATFORM_D_OFF_DATE_OPTIONS, PLATFORM_D_PATHS, platformDId } from './migros-yemek.assumptions';

/** The code of `instead` for a timed close: Migros closes for one hour, four hours or until the next shift. */
export const PLATFORM_D_OFF_DATE_INSTEAD = 'PLATFORM_D_OFF_DATE_OPTION';

/**
 * PLATFORM_D availability (Migros Yemek): ActivateStore / DeActivateStore, the timed AddStoreOffDate and
 * RemoveStoreOffDate, the product status; the store's state read from GetStoreDetail and
 * GetStoreViewStatus. No busy mode. Every POST goes encrypted through the adapter's own call.
 */
export class PlatformDAvailability implements PlatformAvailability {
  constructor(private readonly deps: PlatformDCalls) {}

  planStore(request: StoreAvailabilityRequest, now: Date): StoreAvailabilityPlan {
    if (request.state === 'BUSY') return { kind: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED', message: 'Migros Yemek has no busy mode or preparation-time call for a store.' };
    if (request.state === 'OPEN') return { kind: 'send', state: 'OPEN', params: { operation: 'open' } };
    if (!request.until) return { kind: 'send', state: 'CLOSED', params: { operation: 'deactivate' } };
    const minutes = Math.ceil((request.until.getTime() - now.getTime()) / 60_000);
    if (minutes <= 0) return { kind: 'unsupported', code: 'DURATION_UNSUPPORTED', message: 'The close would end before it starts: `until` is not in the future.' };
    const option = PLATFORM_D_OFF_DATE_OPTIONS.find((candidate) => minutes <= candidate.minutes);
    if (option) {
      const exact = option.minutes - minutes <= 1;
      return {
        kind: 'send',
        state: 'CLOSED',
        params: { operation: 'offDate', storeOffDateOption: option.option },
        ...(exact ? {} : { instead: { code: PLATFORM_D_OFF_DATE_INSTEAD, message: `Migros closes a store for one hour, four hours or until its next shift: it closes for ${option.minutes / 60} h (${option.option}), and the suite reopens it at until.` } }),
      };
    }
    return {
      kind: 'send',
      state: 'CLOSED',
      params: { operation: 'offDate', storeOffDateOption: PLATFORM_D_NEXT_SHIFT_OPTION },
      instead: { code: PLATFORM_D_OFF_DATE_INSTEAD, message: `Migros' longest timed close is until the store's next shift starts (${PLATFORM_D_NEXT_SHIFT_OPTION}): Migros reopens it then, which may come before until; the suite reopens it at until if it is still closed.` },
    };
  }

  async setStore(credentials: IntegrationCredentials, plan: Extract<StoreAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome> {
    const storeId = platformDId(credentials.providerRestaurantId);
    const storeGroupId = platformDId(credentials.settings.providerMerchantId ?? '');
    try {
      switch (plan.params.operation) {
        case 'offDate':
          return outcomeOf(await this.deps.post(credentials, PLATFORM_D_AVAILABILITY_PATHS.addStoreOffDate, { storeId, storeGroupId, storeOffDateOption: plan.params.storeOffDateOption }));
        case 'deactivate': {
          const detail = await this.detail(credentials);
          if ('outcome' in detail) return detail.outcome;
          return outcomeOf(await this.deps.post(credentials, PLATFORM_D_AVAILABILITY_PATHS.deactivateStore, { storeId, warehouseId: detail.warehouseId }));
        }
        case 'open': {
          // Undoes either close: the store is activated if it was deactivated, and the off date goes.
          const detail = await this.detail(credentials);
          if ('outcome' in detail) return detail.outcome;
          if (detail.active === false) {
            const activated = await this.deps.post(credentials, PLATFORM_D_AVAILABILITY_PATHS.activateStore, { storeId, warehouseId: detail.warehouseId });
            if (!succeeded(activated)) return outcomeOf(activated);
          }
          const removed = await this.deps.post(credentials, PLATFORM_D_AVAILABILITY_PATHS.removeStoreOffDate, { storeId, storeGroupId });
          const outcome = outcomeOf(removed);
          if (outcome.kind !== 'failed') return outcome;
          // No source says what it answers when there is no off date to remove: a store Migros shows open is open.
          const view = await this.deps.post(credentials, PLATFORM_D_AVAILABILITY_PATHS.storeViewStatus, { storeId });
          const viewed = isRecord(view.body) && isRecord(view.body.data) ? view.body.data.status : undefined;
          return succeeded(view) && typeof viewed === 'string' && viewed.toUpperCase() === 'OPEN' ? { kind: 'done', answer: answerOf(view) } : outcome;
        }
        default:
          return { kind: 'failed', answer: { httpStatus: null, body: null, error: 'unknown operation' }, reason: `the planned operation ${String(plan.params.operation)} is not one of PLATFORM_D's` };
      }
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  async readStore(credentials: IntegrationCredentials): Promise<StoreReadOutcome> {
    try {
      const detail = await this.detail(credentials);
      if ('outcome' in detail) return detail.outcome.kind === 'retry' ? { kind: 'retry', answer: detail.outcome.answer, retryAfterMs: detail.outcome.retryAfterMs } : { kind: 'failed', answer: detail.outcome.answer, reason: detail.outcome.reason };
      if (detail.active === false) return { kind: 'ok', state: 'CLOSED', platformReason: 'deactivated (DeActivateStore)', answer: detail.answer };
      const view = await this.deps.post(credentials, PLATFORM_D_AVAILABILITY_PATHS.storeViewStatus, { storeId: platformDId(credentials.providerRestaurantId) });
      const outcome = outcomeOf(view);
      if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
      if (outcome.kind === 'failed') return outcome;
      const data = isRecord(view.body) && isRecord(view.body.data) ? view.body.data : {};
      const status = typeof data.status === 'string' ? data.status.toUpperCase() : undefined;
      if (status === 'OPEN') return { kind: 'ok', state: 'OPEN', answer: answerOf(view) };
      if (status === 'CLOSED') return { kind: 'ok', state: 'CLOSED', until: openingTimeOf(data.openingTime), platformReason: 'temporarily closed (off date)', answer: answerOf(view) };
      return { kind: 'failed', answer: answerOf(view), reason: 'PLATFORM_D answered GetStoreViewStatus without a status OPEN or CLOSED' };
    } catch (error) {
      const result = pollResultOfError(error);
      if (result.kind === 'ok') throw error;
      return result;
    }
  }

  planProduct(change: ProductAvailabilityChange, _now?: Date): ProductAvailabilityPlan {
    // Migros has no timed product status: a product off until a time is switched back by the dispatcher's timer.
    return { kind: 'send', params: { status: change.available ? 'ACTIVE' : 'PASSIVE' } };
  }

  async setProduct(credentials: IntegrationCredentials, change: ProductAvailabilityChange, plan: Extract<ProductAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome> {
    try {
      return outcomeOf(
        await this.deps.post(credentials, PLATFORM_D_AVAILABILITY_PATHS.productStatus, { storeId: platformDId(credentials.providerRestaurantId), productId: platformDId(change.platformProductId), status: plan.params.status }),
      );
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  /** GetStoreDetail: the store's warehouseId (ActivateStore / DeActivateStore need it, M-go reads it first) and `active`. */
  private async detail(credentials: IntegrationCredentials): Promise<{ warehouseId: unknown; active?: boolean; answer: PlatformAnswer } | { outcome: Exclude<PlatformCallOutcome, { kind: 'done' } | { kind: 'skipped' }> }> {
    const answer = await this.deps.get(credentials, PLATFORM_D_PATHS.storeDetail);
    const outcome = outcomeOf(answer);
    if (outcome.kind === 'retry' || outcome.kind === 'failed') return { outcome };
    const store = isRecord(answer.body) && isRecord(answer.body.data) ? answer.body.data : {};
    if (store.warehouseId === undefined || store.warehouseId === null) return { outcome: { kind: 'failed', answer: answerOf(answer), reason: 'PLATFORM_D named no warehouseId for the store (GetStoreDetail)' } };
    return { warehouseId: store.warehouseId, active: typeof store.active === 'boolean' ? store.active : undefined, answer: answerOf(answer) };
  }
}

/** GetStoreViewStatus' openingTime, a "unix timestamp": seconds, or milliseconds when that large. */
function openingTimeOf(value: unknown): Date | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) return undefined;
  return new Date(number > 1e12 ? number : number * 1000);
}
