import type { IntegrationCredentials, PlatformAnswer, PlatformCallOutcome } from '../common/platform-adapter';
import type {
  PlatformAvailability,
  ProductAvailabilityChange,
  ProductAvailabilityPlan,
  StoreAvailabilityPlan,
  StoreAvailabilityRequest,
  StoreReadOutcome,
} from '../common/platform-availability';
import type { PlatformBCall } from './yemeksepeti.adapter';
import { answerOf, classifyResponse, outcomeOfError, pollResultOfError } from '../common/outcomes';
import { isRecord } from '../common/payload-reader';
import { platformUrl, retryAfterMs } from '../common/platform-http';
import {
  PLATFORM_B_AVAILABILITY_PENDING_RETRY_MS,
  PLATFORM_B_CLOSED_REASONS_PREFERRED,
  PLATFORM_B_ITEM_AVAILABILITY_PATH,
  PLATFORM_B_VENDOR_AVAILABILITY_PATH,
} from './yemeksepeti.assumptions';

/** One entry of the middleware's availability GET (yemeksepeti.assumptions.ts): the vendor on one DH platform. */
export interface PlatformBAvailabilityEntry {
  availabilityState?: string;
  availabilityStates?: string[];
  changeable?: boolean;
  closedReason?: string | null;
  closingReasons?: string[];
  closingMinutes?: number[];
  closedUntil?: string | null;
  platformKey?: string;
  platformRestaurantId?: string | number;
}

type Entries = { kind: 'entries'; entries: PlatformBAvailabilityEntry[]; answer: PlatformAnswer } | { kind: 'outcome'; outcome: Exclude<PlatformCallOutcome, { kind: 'done' } | { kind: 'skipped' }> };

/** The code of `instead` for a timed close: DH closes for one of the vendor's own closingMinutes. */
export const PLATFORM_B_CLOSING_MINUTES_INSTEAD = 'PLATFORM_B_CLOSING_MINUTES';

/**
 * PLATFORM_B availability: the middleware's vendor availability (GET, then a PUT per changeable entry
 * with values that entry lists) and item availability; no busy mode. DH's own closes reach the plugin
 * (`PUT /remoteId/{remoteId}/availability`), read by the dispatcher, not here.
 */
export class PlatformBAvailability implements PlatformAvailability {
  /** `call`: the adapter's call with the chain's session; `baseUrl`: the middleware's (PLATFORM_B_BASE_URL). */
  constructor(
    private readonly call: PlatformBCall,
    private readonly baseUrl: string,
  ) {}

  planStore(request: StoreAvailabilityRequest, now: Date): StoreAvailabilityPlan {
    if (request.state === 'BUSY') {
      return { kind: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED', message: 'Delivery Hero has no busy mode for a vendor: its middleware only moves the preparation time of one order at a time.' };
    }
    if (request.state === 'OPEN') return { kind: 'send', state: 'OPEN', params: { availabilityState: 'OPEN' } };
    if (!request.until) return { kind: 'send', state: 'CLOSED', params: { availabilityState: 'CLOSED' } };
    const minutes = Math.ceil((request.until.getTime() - now.getTime()) / 60_000);
    if (minutes <= 0) return { kind: 'unsupported', code: 'DURATION_UNSUPPORTED', message: 'The close would end before it starts: `until` is not in the future.' };
    return {
      kind: 'send',
      state: 'CLOSED',
      params: { availabilityState: 'CLOSED_UNTIL', closingMinutes: minutes },
      instead: {
        code: PLATFORM_B_CLOSING_MINUTES_INSTEAD,
        message: `Delivery Hero closes a vendor for one of the closing times it lists for it (CLOSED_UNTIL): the shortest that covers ${minutes} min is used (or plain CLOSED where it lists none), and the suite reopens the store at until.`,
      },
    };
  }

  async setStore(credentials: IntegrationCredentials, plan: Extract<StoreAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome> {
    try {
      const read = await this.entries(credentials);
      if (read.kind === 'outcome') return read.outcome;
      const changeable = read.entries.filter((entry) => entry.changeable === true);
      if (changeable.length === 0) {
        const entry = read.entries[0];
        return { kind: 'failed', answer: read.answer, reason: `Delivery Hero does not let the POS change this vendor's availability (${entry.availabilityState ?? 'state not given'}${entry.closedReason ? `, ${entry.closedReason}` : ''}): only Delivery Hero can` };
      }
      const outcomes: PlatformCallOutcome[] = [];
      for (const entry of changeable) {
        const body = changeBody(entry, plan.params);
        if (typeof body === 'string') {
          outcomes.push({ kind: 'failed', answer: read.answer, reason: body });
          continue;
        }
        const response = await this.call(credentials, 'PUT', platformUrl(this.baseUrl, PLATFORM_B_VENDOR_AVAILABILITY_PATH(chainCodeOf(credentials), credentials.providerRestaurantId)), body);
        outcomes.push(classifyResponse(response));
      }
      return combined(outcomes);
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  async readStore(credentials: IntegrationCredentials): Promise<StoreReadOutcome> {
    try {
      const read = await this.entries(credentials);
      if (read.kind === 'outcome') return read.outcome.kind === 'retry' ? { kind: 'retry', answer: read.outcome.answer, retryAfterMs: read.outcome.retryAfterMs } : { kind: 'failed', answer: read.outcome.answer, reason: read.outcome.reason };
      // A platform DH reports UNKNOWN (its GET sample has one, not changeable) says nothing: read the others, wait only when none is known.
      const known = read.entries.filter((entry) => typeof entry.availabilityState === 'string' && entry.availabilityState !== 'UNKNOWN');
      if (known.length === 0) return { kind: 'retry', answer: read.answer, retryAfterMs: PLATFORM_B_AVAILABILITY_PENDING_RETRY_MS };
      const closed = known.filter((entry) => entry.availabilityState !== 'OPEN');
      if (closed.length === 0) return { kind: 'ok', state: 'OPEN', answer: read.answer };
      const ends = closed.map((entry) => (entry.closedUntil ? Date.parse(entry.closedUntil) : Number.NaN));
      const until = ends.every(Number.isFinite) ? new Date(Math.max(...ends)) : undefined;
      const lead = closed[0];
      const reason = [lead.availabilityState, lead.closedReason, lead.changeable === false ? 'only Delivery Hero can reopen it' : undefined].filter(Boolean).join(', ');
      return { kind: 'ok', state: 'CLOSED', until, platformReason: reason, answer: read.answer };
    } catch (error) {
      const result = pollResultOfError(error);
      if (result.kind === 'ok') throw error;
      return result;
    }
  }

  planProduct(change: ProductAvailabilityChange, _now?: Date): ProductAvailabilityPlan {
    if (change.available) return { kind: 'send', params: { isAvailable: true } };
    // The middleware brings the item back by itself at that time too; the dispatcher's own timer is the second net.
    if (change.until) return { kind: 'send', params: { isAvailable: false, willBeAvailable: 'AT_TIMESTAMP', atTimeStamp: change.until.toISOString() } };
    return { kind: 'send', params: { isAvailable: false } };
  }

  async setProduct(credentials: IntegrationCredentials, change: ProductAvailabilityChange, plan: Extract<ProductAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome> {
    try {
      const read = await this.entries(credentials);
      if (read.kind === 'outcome') return read.outcome;
      const globalEntityIds = [...new Set(read.entries.map((entry) => entry.platformKey).filter((key): key is string => typeof key === 'string' && key.length > 0))];
      if (globalEntityIds.length === 0) return { kind: 'failed', answer: read.answer, reason: 'Delivery Hero names no platform (platformKey) for this vendor, so there is no globalEntityId to switch the item on' };
      const outcomes: PlatformCallOutcome[] = [];
      for (const globalEntityId of globalEntityIds) {
        const response = await this.call(credentials, 'PUT', platformUrl(this.baseUrl, PLATFORM_B_ITEM_AVAILABILITY_PATH(chainCodeOf(credentials), credentials.providerRestaurantId)), {
          globalEntityId,
          items: [change.platformProductId],
          type: 'ITEM',
          ...plan.params,
        });
        // 200 with a body is the middleware's partial success, the body listing what failed: for one item, not done.
        if (response.status === 200 && response.body !== null && response.body !== undefined && response.body !== '') {
          outcomes.push({ kind: 'failed', answer: answerOf(response), reason: `Delivery Hero changed only part of the request (HTTP 200 with failures) on ${globalEntityId}` });
        } else {
          outcomes.push(classifyResponse(response));
        }
      }
      return combined(outcomes);
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  /** The availability GET: its entries, or the outcome that ends the call (204 pending, refusal, retry). */
  private async entries(credentials: IntegrationCredentials): Promise<Entries> {
    const response = await this.call(credentials, 'GET', platformUrl(this.baseUrl, PLATFORM_B_VENDOR_AVAILABILITY_PATH(chainCodeOf(credentials), credentials.providerRestaurantId)));
    const answer = answerOf(response);
    if (response.status === 204) return { kind: 'outcome', outcome: { kind: 'retry', answer, retryAfterMs: retryAfterMs(response.headers) ?? PLATFORM_B_AVAILABILITY_PENDING_RETRY_MS } };
    if (response.status < 200 || response.status >= 300) {
      const outcome = classifyResponse(response);
      if (outcome.kind === 'retry' || outcome.kind === 'failed') return { kind: 'outcome', outcome };
      return { kind: 'outcome', outcome: { kind: 'failed', answer, reason: `unexpected answer HTTP ${response.status}` } };
    }
    const list = Array.isArray(response.body) ? response.body : isRecord(response.body) ? [response.body] : [];
    const entries = list.filter(isRecord) as PlatformBAvailabilityEntry[];
    if (entries.length === 0) return { kind: 'outcome', outcome: { kind: 'failed', answer, reason: 'Delivery Hero lists no platform for this vendor (is the remoteId mapped on its side?)' } };
    return { kind: 'entries', entries, answer };
  }
}

function chainCodeOf(credentials: IntegrationCredentials): string {
  return credentials.settings.chainCode ?? '';
}

/**
 * The PUT body for one changeable entry, with values that entry lists (any, where a list is empty), or why none fits. A timed close
 * the entry does not take becomes CLOSED (the suite reopens it at until); closingMinutes is the shortest
 * listed that covers the time asked, else the longest listed.
 */
export function changeBody(entry: PlatformBAvailabilityEntry, params: Record<string, string | number | boolean | null>): Record<string, unknown> | string {
  // An empty list restricts nothing: DH's own GET sample lists changeable entries with empty lists.
  const allowed = Array.isArray(entry.availabilityStates) && entry.availabilityStates.length > 0 ? entry.availabilityStates : undefined;
  let state = String(params.availabilityState);
  if (allowed && !allowed.includes(state) && state === 'CLOSED_UNTIL' && allowed.includes('CLOSED')) state = 'CLOSED';
  if (allowed && !allowed.includes(state)) return `Delivery Hero does not take ${state} for this vendor on ${entry.platformKey ?? 'its platform'} now (it takes ${allowed.join(', ') || 'nothing'})`;
  const body: Record<string, unknown> = { availabilityState: state, platformKey: entry.platformKey, platformRestaurantId: entry.platformRestaurantId };
  if (state === 'OPEN') return body;
  const reasons = Array.isArray(entry.closingReasons) ? entry.closingReasons : [];
  body.closedReason = PLATFORM_B_CLOSED_REASONS_PREFERRED.find((reason) => reasons.includes(reason)) ?? reasons[0] ?? PLATFORM_B_CLOSED_REASONS_PREFERRED[0];
  if (state === 'CLOSED_UNTIL') {
    const wanted = Number(params.closingMinutes);
    const listed = (Array.isArray(entry.closingMinutes) ? entry.closingMinutes : []).filter((value) => typeof value === 'number' && value > 0).sort((a, b) => a - b);
    body.closingMinutes = listed.length === 0 ? wanted : listed.find((value) => value >= wanted) ?? listed[listed.length - 1];
  }
  return body;
}

/** Several calls as one outcome: any retry retries (every call is idempotent), else any refusal is final, else done. */
function combined(outcomes: PlatformCallOutcome[]): PlatformCallOutcome {
  const retry = outcomes.find((outcome) => outcome.kind === 'retry');
  if (retry) return retry;
  const failed = outcomes.find((outcome) => outcome.kind === 'failed');
  if (failed) return failed;
  return outcomes[outcomes.length - 1];
}
