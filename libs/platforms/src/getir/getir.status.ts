import type { StatusPushAction } from '@courier/domain';
import type { IntegrationCredentials, PlatformCallOutcome, PlatformOrderRef } from '../common/platform-adapter';
import type { PlatformStatus } from '../common/platform-status';
import { answerOf, classifyResponse, isRetryableStatus, outcomeOfError } from '../common/outcomes';
import { PlatformResponse, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import type { GetirClientSettings } from './getir.client.config';
import {
  GETIR_COURIER,
  PLATFORM_A_ALREADY_DONE,
  PLATFORM_A_CANCEL_OPTIONS_BLOCK_MS,
  PLATFORM_A_COURIER_NOT_YET_CODES,
  PLATFORM_A_DEFAULT_CANCEL_NOTE,
  PLATFORM_A_ERROR,
  PLATFORM_A_RATE_LIMIT_BLOCK_MS,
  PLATFORM_A_STATUS_LOCK_RETRY_MS,
  PLATFORM_A_STATUS_NAMES,
  PLATFORM_A_STEP_DATES,
  PLATFORM_A_TIME_LIMIT_CODES,
  platformAIsApproved,
  platformAVerifyStep,
  RESTAURANT_COURIER,
} from './getir.assumptions';
import { PLATFORM_A } from './getir.platform';
import type { PlatformAOrderData } from './getir.orders';
import type { PlatformACall } from './getir.adapter';

/** The `code` of Getir's error envelope `{ code, error, message, details?, source? }`. */
export function errorCode(response: PlatformResponse): number | undefined {
  const code = isRecord(response.body) ? response.body.code : undefined;
  return typeof code === 'number' ? code : typeof code === 'string' && /^-?\d+$/.test(code) ? Number(code) : undefined;
}

/** A refusal as operators read it: the HTTP status, and Getir's code and error name when it gave them. */
export function describeError(response: PlatformResponse): string {
  const body = isRecord(response.body) ? response.body : {};
  const code = errorCode(response);
  return `PLATFORM_A refused the call (HTTP ${response.status}${code !== undefined ? `, code ${code} ${typeof body.error === 'string' ? body.error : ''}`.trimEnd() : ''})`;
}

type Operation = { path: string } | { skip: string } | { readStatus: true };

/**
 * PLATFORM_A's status calls: `POST /food-orders/{id}/{verify|verify-scheduled|prepare|handover|deliver|cancel}`
 * with the restaurant's session; the answer's service error code decides done / retry / final
 * (getir.assumptions.ts).
 */
export class PlatformAStatus implements PlatformStatus {
  constructor(
    private readonly config: GetirClientSettings,
    private readonly call: PlatformACall,
  ) {}

  stepSpacing() {
    return { actions: PLATFORM_A.spacedSteps ?? [], ms: this.config.PLATFORM_A_PREPARE_HOLD_MS };
  }

  async send(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const data = order.platformData as PlatformAOrderData;
    const orderPath = `/food-orders/${encodeURIComponent(order.platformOrderId)}`;
    try {
      let operation = this.operationFor(action, data);
      if ('readStatus' in operation) {
        // The status stored at intake does not say which approval call the order needs: ask Getir.
        const current = await this.call(credentials, 'GET', orderPath);
        if (current.status < 200 || current.status >= 300) return this.classify(current, action, orderPath, credentials);
        const status = isRecord(current.body) && typeof current.body.status === 'number' ? current.body.status : undefined;
        // Approved already (a scheduled order at 350 is moved to 500 by Getir itself): there is no second verify.
        if (platformAIsApproved(status)) return { kind: 'done', answer: answerOf(current), alreadyDone: true };
        operation = { path: platformAVerifyStep(status) ?? 'verify' };
      }
      if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
      let body: unknown;
      if (operation.path === 'cancel') {
        const options = await this.call(credentials, 'GET', `${orderPath}/cancel-options`);
        if (options.status < 200 || options.status >= 300) return this.classify(options, action, orderPath, credentials, PLATFORM_A_CANCEL_OPTIONS_BLOCK_MS);
        const cancelReasonId = chooseCancelReason(options.body, reason);
        if (!cancelReasonId) return { kind: 'failed', answer: answerOf(options), reason: 'PLATFORM_A offered no cancel reason for this order' };
        body = { cancelNote: reason?.trim() || PLATFORM_A_DEFAULT_CANCEL_NOTE, cancelReasonId };
      }
      return await this.classify(await this.call(credentials, 'POST', `${orderPath}/${operation.path}`, body), action, orderPath, credentials);
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  private operationFor(action: StatusPushAction, data: PlatformAOrderData): Operation {
    switch (action) {
      case 'VERIFY': {
        // By the order's status (325 verify-scheduled, 400 verify), not by isScheduled.
        const step = platformAVerifyStep(data.status);
        return step ? { path: step } : { readStatus: true };
      }
      case 'PREPARE':
        return { path: 'prepare' };
      case 'HANDOVER':
        // Handover is Getir's courier taking the order; the restaurant's courier reports deliver instead.
        return data.deliveryType === RESTAURANT_COURIER ? { skip: 'the restaurant\'s courier delivers this order (deliveryType 2): PLATFORM_A hears DELIVER, not HANDOVER' } : { path: 'handover' };
      case 'DELIVER':
        return data.deliveryType === GETIR_COURIER ? { skip: 'PLATFORM_A\'s own courier delivers this order (deliveryType 1): it reports the delivery itself' } : { path: 'deliver' };
      case 'CANCEL':
      case 'REJECT':
        return { path: 'cancel' };
    }
  }

  /** An answer as done / retry / final, by Getir's service error code (G errors/getir-error-codes.yml). */
  private async classify(response: PlatformResponse, action: StatusPushAction, orderPath: string, credentials: IntegrationCredentials, blockMs = PLATFORM_A_RATE_LIMIT_BLOCK_MS): Promise<PlatformCallOutcome> {
    const answer = answerOf(response);
    if (response.status >= 200 && response.status < 300) return { kind: 'done', answer };
    if (response.status === 429) return { kind: 'retry', answer, retryAfterMs: retryAfterMs(response.headers) ?? blockMs };
    if (isRetryableStatus(response.status)) return classifyResponse(response);
    const code = errorCode(response);
    if (code !== undefined && PLATFORM_A_ALREADY_DONE[action].includes(code)) return { kind: 'done', answer, alreadyDone: true };
    if (code === PLATFORM_A_ERROR.STATUS_LOCK) return { kind: 'retry', answer, retryAfterMs: PLATFORM_A_STATUS_LOCK_RETRY_MS };
    if (code !== undefined && PLATFORM_A_COURIER_NOT_YET_CODES.includes(code)) {
      // Getir's courier is not there yet: a bounded "not yet", not a refusal.
      const pacing = { rule: `${describeError(response)}: PLATFORM_A's courier cannot take the order yet`, intervalMs: this.config.PLATFORM_A_COURIER_RETRY_INTERVAL_MS, windowMs: this.config.PLATFORM_A_COURIER_RETRY_WINDOW_MS };
      return { kind: 'retry', answer, pacing };
    }
    if (code !== undefined && PLATFORM_A_TIME_LIMIT_CODES.includes(code)) return { kind: 'retry', answer, retryAfterMs: this.config.PLATFORM_A_STEP_INTERVAL_MS };
    if (code === PLATFORM_A_ERROR.STATUS_INVALID) return this.doneIfMovedOn(response, action, orderPath, credentials);
    return { kind: 'failed', answer, reason: describeError(response) };
  }

  /**
   * Code 3: the order is not in a status for this step. Done only when the order already moved past
   * it (the step's date, or a later one, is set on the order); otherwise a final refusal.
   */
  private async doneIfMovedOn(refusal: PlatformResponse, action: StatusPushAction, orderPath: string, credentials: IntegrationCredentials): Promise<PlatformCallOutcome> {
    const answer = answerOf(refusal);
    const dates = PLATFORM_A_STEP_DATES[action];
    if (!dates) return { kind: 'failed', answer, reason: describeError(refusal) };
    const current = await this.call(credentials, 'GET', orderPath);
    if (isRetryableStatus(current.status)) return { kind: 'retry', answer: answerOf(current), retryAfterMs: retryAfterMs(current.headers) };
    const order = current.status >= 200 && current.status < 300 && isRecord(current.body) ? current.body : undefined;
    if (order && dates.some((field) => typeof order[field] === 'string' && order[field] !== '')) return { kind: 'done', answer, alreadyDone: true };
    const status = typeof order?.status === 'number' ? ` (order status ${order.status} ${PLATFORM_A_STATUS_NAMES[order.status] ?? ''})`.replace(/ \)$/, ')') : '';
    return { kind: 'failed', answer, reason: `${describeError(refusal)}: the order is not in a status for ${action}${status}` };
  }
}

/**
 * A reason the platform offers (`[{ id, message }]`, G Swagger "Food Order Cancel Option Response
 * Schema"): the one the caller named (by id or text), else the first offered.
 */
function chooseCancelReason(body: unknown, reason?: string | null): string | undefined {
  const list = Array.isArray(body) ? body : [];
  const options = list.filter(isRecord).map((option) => ({ id: typeof option.id === 'string' ? option.id : '', text: JSON.stringify(option.message ?? '').toLowerCase() }));
  const wanted = reason?.trim().toLowerCase();
  const match = wanted ? options.find((option) => option.id !== '' && (option.id.toLowerCase() === wanted || option.text.includes(wanted))) : undefined;
  return (match ?? options.find((option) => option.id !== ''))?.id || undefined;
}
