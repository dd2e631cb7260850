import type { IntegrationCredentials, PlatformCallOutcome } from '../common/platform-adapter';
import type { PlatformACall } from './getir.adapter';
import type {
  ProductAvailabilityChange,
  ProductAvailabilityPlan,
  PlatformAvailability,
  StoreAvailabilityPlan,
  StoreAvailabilityRequest,
  StoreReadOutcome,
} from '../common/platform-availability';
import { answerOf, classifyResponse, isRetryableStatus, outcomeOfError } from '../common/outcomes';
import { PlatformResponse, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import {
  PLATFORM_A_AVAILABILITY_PATHS,
  PLATFORM_A_BUSY_MINUTES,
  PLATFORM_A_CLOSE_MINUTES,
  PLATFORM_A_CLOSE_TOLERANCE_MS,
  PLATFORM_A_CONFIGURATION_RATE_LIMIT,
  PLATFORM_A_DAY_OFFSET_MS,
  PLATFORM_A_DEFAULT_BUSY_MINUTES,
  PLATFORM_A_PRODUCT_STATUS,
  PLATFORM_A_RATE_LIMIT_BLOCK_MS,
  PLATFORM_A_RESTAURANT_STATUS,
} from './getir.assumptions';

type StoreAction = 'open' | 'close' | 'busy';
const MINUTE_MS = 60_000;

/**
 * PLATFORM_A's availability (getir.assumptions.ts, "Availability"): OPEN opens and ends busy
 * mode, CLOSED closes (for 15, 30 or 45 minutes when `until` allows, else until an OPEN), BUSY opens
 * and turns busy mode on with 15, 30 or 45 extra minutes. Store calls and the read are configuration
 * calls (2 / 60 s per token): booked as `availability:store` (2) and `availability:read` (1).
 */
export class PlatformAAvailability implements PlatformAvailability {
  constructor(private readonly call: PlatformACall) {}

  planStore(request: StoreAvailabilityRequest, now: Date): StoreAvailabilityPlan {
    const untilMs = request.until ? request.until.getTime() - now.getTime() : undefined;
    if (untilMs !== undefined && untilMs <= 0)
      return { kind: 'unsupported', code: 'DURATION_UNSUPPORTED', message: '`until` is not in the future.' };
    switch (request.state) {
      case 'OPEN':
        return { kind: 'send', state: 'OPEN', params: { action: 'open', timeOffAmount: null, busynessDifferenceDuration: null } };
      case 'CLOSED':
        return planClose(untilMs);
      case 'BUSY':
        return planBusy(request.busyMinutes);
    }
  }

  async setStore(
    credentials: IntegrationCredentials,
    plan: Extract<StoreAvailabilityPlan, { kind: 'send' }>,
  ): Promise<PlatformCallOutcome> {
    const action = plan.params.action as StoreAction;
    const P = PLATFORM_A_AVAILABILITY_PATHS;
    try {
      if (action === 'close') {
        const minutes = plan.params.timeOffAmount;
        // Without timeOffAmount Getir closes until an open (the clients send no body then).
        return configurationOutcome(
          await this.call(credentials, 'PUT', P.close, typeof minutes === 'number' ? { timeOffAmount: minutes } : undefined),
        );
      }
      // OPEN and BUSY both open the restaurant, then set busy mode: a restaurant stays busy across a close.
      const opened = configurationOutcome(await this.call(credentials, 'PUT', P.open));
      if (opened.kind !== 'done') return opened;
      const busyness =
        action === 'busy' ? { isBusy: true, busynessDifferenceDuration: plan.params.busynessDifferenceDuration } : { isBusy: false };
      return configurationOutcome(await this.call(credentials, 'PUT', P.busyness, busyness));
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  /** `GET /restaurants`: open or closed, and whether Getir closed it itself. It does not show busy mode. */
  async readStore(credentials: IntegrationCredentials): Promise<StoreReadOutcome> {
    let response: PlatformResponse;
    try {
      response = await this.call(credentials, 'GET', PLATFORM_A_AVAILABILITY_PATHS.restaurant);
    } catch (error) {
      return readOutcome(outcomeOfError(error), error);
    }
    const outcome = configurationOutcome(response);
    if (outcome.kind !== 'done') return readOutcome(outcome);
    const answer = answerOf(response);
    const body = isRecord(response.body) ? response.body : {};
    const status = typeof body.status === 'number' ? body.status : undefined;
    const open = (PLATFORM_A_RESTAURANT_STATUS.OPEN as readonly number[]).includes(status ?? NaN);
    const closed = (PLATFORM_A_RESTAURANT_STATUS.CLOSED as readonly number[]).includes(status ?? NaN);
    if (!open && !closed)
      return {
        kind: 'failed',
        answer,
        reason: `PLATFORM_A answered a restaurant status this suite does not know (${JSON.stringify(body.status ?? null)})`,
      };
    if (open) return { kind: 'ok', state: 'OPEN', answer };
    const byPlatform = body.isStatusChangedByUser === false;
    const platformReason = byPlatform
      ? `closed by PLATFORM_A itself${typeof body.closedSource === 'number' ? ` (closedSource ${body.closedSource})` : ''}`
      : undefined;
    return { kind: 'ok', state: 'CLOSED', answer, ...(platformReason ? { platformReason } : {}) };
  }

  planProduct(change: ProductAvailabilityChange, now: Date): ProductAvailabilityPlan {
    const S = PLATFORM_A_PRODUCT_STATUS;
    if (change.available) return { kind: 'send', params: { status: S.ACTIVE } };
    if (!change.until) return { kind: 'send', params: { status: S.INACTIVE } };
    if (change.until.getTime() <= now.getTime())
      return { kind: 'unsupported', code: 'DURATION_UNSUPPORTED', message: '`until` is not in the future.' };
    // Sold out until a time today: Getir's "inactive for the day" brings it back by itself tomorrow at the latest.
    return { kind: 'send', params: { status: change.until.getTime() <= endOfDay(now.getTime()) ? S.DAILY_INACTIVE : S.INACTIVE } };
  }

  async setProduct(
    credentials: IntegrationCredentials,
    change: ProductAvailabilityChange,
    plan: Extract<ProductAvailabilityPlan, { kind: 'send' }>,
  ): Promise<PlatformCallOutcome> {
    try {
      const response = await this.call(credentials, 'PUT', PLATFORM_A_AVAILABILITY_PATHS.productStatus(change.platformProductId), {
        status: plan.params.status,
      });
      return outcomeOf(response, PLATFORM_A_RATE_LIMIT_BLOCK_MS);
    } catch (error) {
      return outcomeOfError(error);
    }
  }
}

/** A close: Getir's smallest duration not shorter than asked, or a close until an open. */
function planClose(untilMs: number | undefined): StoreAvailabilityPlan {
  const send = (timeOffAmount: number | null, instead?: { code: string; message: string }): StoreAvailabilityPlan => ({
    kind: 'send',
    state: 'CLOSED',
    params: { action: 'close', timeOffAmount, busynessDifferenceDuration: null },
    ...(instead ? { instead } : {}),
  });
  if (untilMs === undefined) return send(null);
  // Never shorter than asked (Getir would reopen before `until`); the tolerance only spares a near-exact one its `instead`.
  const minutes = PLATFORM_A_CLOSE_MINUTES.find((allowed) => allowed * MINUTE_MS >= untilMs);
  // Longer than Getir's longest timed close: closed until the suite's OPEN at `until`.
  if (minutes === undefined)
    return send(null, {
      code: 'REOPENED_BY_SUITE',
      message:
        'PLATFORM_A closes by itself for 45 minutes at most: the store is closed without a duration and opened again by this suite at `until`.',
    });
  if (Math.abs(minutes * MINUTE_MS - untilMs) <= PLATFORM_A_CLOSE_TOLERANCE_MS) return send(minutes);
  const asked = Math.ceil(untilMs / MINUTE_MS);
  return send(minutes, {
    code: 'CLOSE_DURATION_ROUNDED_UP',
    message: `PLATFORM_A closes only for 15, 30 or 45 minutes: it is closed for ${minutes} minutes (the nearest not shorter than the ${asked} asked) and opened again at \`until\`.`,
  });
}

/** Busy mode: Getir's smallest extra duration not shorter than asked (15 when none is asked), 45 at most. */
function planBusy(busyMinutes: number | undefined): StoreAvailabilityPlan {
  const asked = busyMinutes ?? PLATFORM_A_DEFAULT_BUSY_MINUTES;
  if (!Number.isFinite(asked) || asked <= 0)
    return { kind: 'unsupported', code: 'DURATION_UNSUPPORTED', message: '`busyMinutes` must be a positive number of minutes.' };
  const allowed =
    PLATFORM_A_BUSY_MINUTES.find((minutes) => minutes >= asked) ?? PLATFORM_A_BUSY_MINUTES[PLATFORM_A_BUSY_MINUTES.length - 1];
  const params = { action: 'busy', timeOffAmount: null, busynessDifferenceDuration: allowed };
  if (allowed === asked) return { kind: 'send', state: 'BUSY', params };
  const instead =
    asked > allowed
      ? { code: 'BUSY_MINUTES_CAPPED', message: `PLATFORM_A adds at most 45 minutes in busy mode: it adds 45, not the ${asked} asked.` }
      : {
          code: 'BUSY_MINUTES_ROUNDED_UP',
          message: `PLATFORM_A adds 15, 30 or 45 minutes in busy mode: it adds ${allowed} (the nearest not shorter than the ${asked} asked).`,
        };
  return { kind: 'send', state: 'BUSY', params, instead };
}

/** A read that did not succeed, as the read's outcome (a skip cannot happen: anything else is a programming error). */
function readOutcome(outcome: PlatformCallOutcome, error?: unknown): Exclude<StoreReadOutcome, { kind: 'ok' }> {
  if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
  if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
  throw error ?? new Error(`a failed read cannot be ${outcome.kind}`);
}

/** A configuration call's answer: a 429 is the family's 30 s block. */
function configurationOutcome(response: PlatformResponse): PlatformCallOutcome {
  return outcomeOf(response, PLATFORM_A_CONFIGURATION_RATE_LIMIT.blockMs);
}

/** 2xx done; 429 retry after the block; 408/5xx retry; any other refusal (Getir's envelope, HTTP 400) final, with its code. */
export function outcomeOf(response: PlatformResponse, blockMs: number): PlatformCallOutcome {
  const answer = answerOf(response);
  if (response.status >= 200 && response.status < 300) return { kind: 'done', answer };
  if (response.status === 429) return { kind: 'retry', answer, retryAfterMs: retryAfterMs(response.headers) ?? blockMs };
  if (isRetryableStatus(response.status)) return classifyResponse(response);
  const body = isRecord(response.body) ? response.body : {};
  const code =
    typeof body.code === 'number' || typeof body.code === 'string'
      ? `, code ${body.code}${typeof body.error === 'string' ? ` ${body.error}` : ''}`
      : '';
  return { kind: 'failed', answer, reason: `PLATFORM_A refused the call (HTTP ${response.status}${code})` };
}

/** The end of the restaurant's day (Turkey, UTC+3) holding an instant, epoch ms. */
function endOfDay(at: number): number {
  return (Math.floor((at + PLATFORM_A_DAY_OFFSET_MS) / 86_400_000) + 1) * 86_400_000 - PLATFORM_A_DAY_OFFSET_MS;
}
