import type { StatusPushAction } from '@courier/domain';
import type { IntegrationCredentials, PlatformCallOutcome, PlatformOrderRef } from '../common/platform-adapter';
import type { PlatformStatus } from '../common/platform-status';
import { answerOf, classifyResponse, outcomeOfError } from '../common/outcomes';
import { PlatformResponse, platformUrl } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import type { YemeksepetiClientSettings } from './yemeksepeti.client.config';
import {
  PLATFORM_B_ACCEPTANCE_MARGIN_MS,
  PLATFORM_B_DEFAULT_PREPARATION_MS,
  PLATFORM_B_DEFAULT_REJECT_REASON,
  PLATFORM_B_MIN_ACCEPTANCE_LEAD_MS,
  PLATFORM_B_REASON_WORDS,
  PLATFORM_B_REJECT_REASONS,
  PLATFORM_B_RETRYABLE_409_STATES,
  PlatformBCallbackUrls,
  PlatformBRejectReason,
} from './yemeksepeti.assumptions';
import type { PlatformBOrderData } from './yemeksepeti.orders';
import type { PlatformBCall } from './yemeksepeti.adapter';

type Operation = { url: string; body?: Record<string, unknown> } | { skip: string };

/** The pacing rule of a 409 the middleware answers while the order is not ready for the call yet. */
export const PLATFORM_B_409_PACING_RULE = 'PLATFORM_B_409_NOT_YET';

/**
 * PLATFORM_B's status calls: each goes where the order's `callbackUrls` say (on the configured
 * middleware host), addressed by the order's token; a 409 while the order is not ready is retried at
 * the middleware's own pace (yemeksepeti.assumptions.ts).
 */
export class PlatformBStatus implements PlatformStatus {
  constructor(
    private readonly config: YemeksepetiClientSettings,
    private readonly call: PlatformBCall,
    private readonly now: () => number = Date.now,
  ) {}

  async send(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const data = order.platformData as Partial<PlatformBOrderData>;
    const token = data.token ?? order.platformOrderId;
    const operation = this.operationFor(data, token, order.yemekKuryeOrderId, action, reason);
    if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
    try {
      return this.classify(await this.call(credentials, 'POST', operation.url, operation.body));
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  private operationFor(data: Partial<PlatformBOrderData>, token: string, remoteOrderId: string, action: StatusPushAction, reason?: string | null): Operation {
    const statusPath = `/v2/order/status/${encodeURIComponent(token)}`;
    switch (action) {
      case 'VERIFY': {
        const target = this.target(data.callbackUrls, 'orderAcceptedUrl', statusPath);
        return 'skip' in target ? target : { ...target, body: { status: 'order_accepted', acceptanceTime: this.acceptanceTime(data), remoteOrderId } };
      }
      case 'PREPARE':
        if (data.delivery !== 'platform') return { skip: "preparation-completed is only for orders the platform's riders carry; this one is delivered by the vendor or picked up" };
        return this.target(data.callbackUrls, 'orderPreparedUrl', `/v2/orders/${encodeURIComponent(token)}/preparation-completed`);
      case 'HANDOVER': {
        if (data.delivery === 'platform') return { skip: "the platform's rider picks this order up and reports it" };
        const target = this.target(data.callbackUrls, 'orderPickedUpUrl', statusPath);
        return 'skip' in target ? target : { ...target, body: { status: 'order_picked_up' } };
      }
      case 'DELIVER':
        return { skip: 'the middleware has no delivered status for the POS to send' };
      case 'CANCEL':
      case 'REJECT': {
        const target = this.target(data.callbackUrls, 'orderRejectedUrl', statusPath);
        const message = reason?.trim().slice(0, 250);
        return 'skip' in target ? target : { ...target, body: { status: 'order_rejected', reason: platformBRejectReason(reason, data.test === true), ...(message ? { message } : {}) } };
      }
    }
  }

  /**
   * Where a callback goes: the order's own URL for it (on the configured middleware host), nothing
   * when the order says the callback does not apply (its URL null), the documented path when the
   * order carried no callbackUrls at all (yemeksepeti.assumptions.ts).
   */
  private target(urls: PlatformBCallbackUrls | undefined, field: keyof PlatformBCallbackUrls, documentedPath: string): { url: string } | { skip: string } {
    const documented = { url: platformUrl(this.config.PLATFORM_B_BASE_URL, documentedPath) };
    if (!urls) return documented;
    const given = urls[field];
    if (!given) return { skip: `the order's callbackUrls.${field} is empty: the platform takes no such call for this order` };
    return sameOrigin(given, this.config.PLATFORM_B_BASE_URL) ? { url: given } : documented;
  }

  /**
   * When the order will be ready: the time it is due (rider pickup, expected delivery, pickup time),
   * never less than 2 minutes (+ margin) after now, as the middleware refuses anything sooner.
   */
  private acceptanceTime(data: Partial<PlatformBOrderData>): string {
    const now = this.now();
    const due = data.expectedAt ? Date.parse(data.expectedAt) : Number.NaN;
    const wanted = Number.isFinite(due) ? due : now + PLATFORM_B_DEFAULT_PREPARATION_MS;
    return new Date(Math.max(wanted, now + PLATFORM_B_MIN_ACCEPTANCE_LEAD_MS + PLATFORM_B_ACCEPTANCE_MARGIN_MS)).toISOString();
  }

  private classify(response: PlatformResponse): PlatformCallOutcome {
    if (response.status === 409) {
      // The middleware's own rule: while the order is WAITING_FOR_ACKNOWLEDGEMENT or
      // ASSIGNED_TO_TRANSPORT, try again about every 10 s for up to 5 minutes. Any other 409
      // (the order was cancelled) is final.
      const state = isRecord(response.body) && typeof response.body.currentState === 'string' ? response.body.currentState : undefined;
      if (state && (PLATFORM_B_RETRYABLE_409_STATES as readonly string[]).includes(state)) {
        return {
          kind: 'retry',
          answer: answerOf(response),
          pacing: { rule: PLATFORM_B_409_PACING_RULE, intervalMs: this.config.PLATFORM_B_ACK_RETRY_INTERVAL_MS, windowMs: this.config.PLATFORM_B_ACK_RETRY_WINDOW_MS },
        };
      }
      return { kind: 'failed', answer: answerOf(response), reason: `the platform refused the change (HTTP 409, currentState ${state ?? 'not given'}): the order is cancelled or in a state that does not allow it` };
    }
    return classifyResponse(response);
  }
}

/**
 * The middleware's code for a push's reason: the test order's TEST_ORDER; a code as given
 * (`item_unavailable`, `Item unavailable`); a code named by words of the text; else the default.
 */
export function platformBRejectReason(reason: string | null | undefined, test = false): PlatformBRejectReason {
  if (test) return 'TEST_ORDER';
  const text = reason?.trim() ?? '';
  const code = text.toUpperCase().replace(/[\s-]+/g, '_');
  const exact = PLATFORM_B_REJECT_REASONS.find((known) => known === code);
  if (exact) return exact;
  return PLATFORM_B_REASON_WORDS.find(([words]) => words.test(text))?.[1] ?? PLATFORM_B_DEFAULT_REJECT_REASON;
}

function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}
