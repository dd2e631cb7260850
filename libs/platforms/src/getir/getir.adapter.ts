import type { StatusPushAction } from '@courier/domain';
import type { PlatformOrder } from '../common/platform-adapter';
import { PLATFORM_A_ACCEPT_WARNING_MS, platformAAcceptBy } from './getir.assumptions';
import type { CredentialCheck, IntegrationCredentials, ParsedPlatformOrder, PlatformAdapter, PlatformAnswer, PlatformCallOutcome, PlatformOrderRef, PosReadyOutcome } from '../common/platform-adapter';

import type { GetirClientSettings } from './getir.client.config';
import { answerOf, checkOfError, classifyResponse, isRetryableStatus, LoginRejectedError, outcomeOfError, PlatformNotConfiguredError, sessionFromLogin } from '../common/outcomes';
import { platformRequest, PlatformResponse, platformUrl, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { PlatformSession, SessionCache } from '../common/session-cache';
import {
  GETIR_COURIER,
  PLATFORM_A_ALREADY_DONE,
  PLATFORM_A_CANCEL_OPTIONS_BLOCK_MS,
  PLATFORM_A_COURIER_NOT_YET_CODES,
  PLATFORM_A_DEFAULT_CANCEL_NOTE,
  PLATFORM_A_ERROR,
  PLATFORM_A_LOGIN_RESTAURANT_FIELD,
  PLATFORM_A_POS_STATUS,
  PLATFORM_A_POS_STATUS_PATH,
  PLATFORM_A_POLL_PATHS,
  PLATFORM_A_RATE_LIMIT_BLOCK_MS,
  PLATFORM_A_STATUS_LOCK_RETRY_MS,
  PLATFORM_A_STATUS_NAMES,
  PLATFORM_A_STEP_DATES,
  PLATFORM_A_TIME_LIMIT_CODES,
  PLATFORM_A_TOKEN_TTL_MS,
  platformAIsApproved,
  platformAVerifyStep,
  RESTAURANT_COURIER,
} from './getir.assumptions';
import { PLATFORM_A } from './getir.platform';
import { PlatformAOrderData, parsePlatformAOrder } from './getir.orders';
import { PlatformAAvailability } from './getir.availability';
import { PlatformACatalog } from './getir.catalog';

/** The `code` of Getir's error envelope `{ code, error, message, details?, source? }`. */
function errorCode(response: PlatformResponse): number | undefined {
  const code = isRecord(response.body) ? response.body.code : undefined;
  return typeof code === 'number' ? code : typeof code === 'string' && /^-?\d+$/.test(code) ? Number(code) : undefined;
}

function describeError(response: PlatformResponse): string {
  const body = isRecord(response.body) ? response.body : {};
  const code = errorCode(response);
  return `PLATFORM_A refused the call (HTTP ${response.status}${code !== undefined ? `, code ${code} ${typeof body.error === 'string' ? body.error : ''}`.trimEnd() : ''})`;
}

/** Why a fallback list could not be read. */
export type PlatformAListRefusal = { kind: 'retry'; answer: PlatformAnswer; retryAfterMs?: number } | { kind: 'failed'; answer: PlatformAnswer; reason: string };

/** What Getir's two periodic polling endpoints listed, parsed; or why they could not be read. */
export type PlatformAFallbackOrders = { kind: 'ok'; unapproved: ParsedPlatformOrder[]; cancelled: ParsedPlatformOrder[] } | PlatformAListRefusal;

/** What `POST /food-orders/active` listed, parsed; or why it could not be read. */
export type PlatformAActiveOrders = { kind: 'ok'; active: ParsedPlatformOrder[] } | PlatformAListRefusal;

type Operation = { path: string } | { skip: string } | { readStatus: true };

/**
 * PLATFORM_A: Getir Yemek's food external API. Login with the integrator's app key and the
 * restaurant's secretKey; the token goes in a `token` header and lives 1 h (a 401 logs in again).
 * Status calls are `POST /food-orders/{id}/{verify|verify-scheduled|prepare|handover|deliver|cancel}`;
 * the answer's service error code decides done / retry / final (getir.assumptions.ts).
 */
export class PlatformAAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_A';
  readonly callBudget = PLATFORM_A.callBudget;
  readonly availability = new PlatformAAvailability((credentials, method, path, json) => this.call(credentials, method, path, json));
  readonly catalog = new PlatformACatalog((credentials, method, path, json) => this.call(credentials, method, path, json));

  /** The platform's accept-by rule (getir.assumptions.ts) with this deployment's window. */
  acceptBy(order: PlatformOrder, receivedAt: Date): Date | null {
    return platformAAcceptBy(order, receivedAt, this.config.PLATFORM_A_ACCEPT_WINDOW_MS);
  }

  get acceptanceWarningMs(): number {
    return this.config.PLATFORM_A_ACCEPT_WARNING_MS ?? PLATFORM_A_ACCEPT_WARNING_MS;
  }

  constructor(
    private readonly config: GetirClientSettings,
    readonly sessions: SessionCache,
  ) {}

  stepSpacing() {
    return { actions: PLATFORM_A.spacedSteps ?? [], ms: this.config.PLATFORM_A_PREPARE_HOLD_MS };
  }

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
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

  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    try {
      // A real login, not the cached token: the check must prove the stored credentials work now.
      const { response } = await this.loginAnswer(credentials);
      const named = isRecord(response.body) ? response.body[PLATFORM_A_LOGIN_RESTAURANT_FIELD] : undefined;
      const platformRestaurantId = typeof named === 'string' || typeof named === 'number' ? String(named) : undefined;
      if (platformRestaurantId !== undefined && platformRestaurantId !== credentials.providerRestaurantId) {
        return {
          result: 'wrong_restaurant',
          detail: `PLATFORM_A accepted the login for restaurant ${platformRestaurantId}, not for ${credentials.providerRestaurantId} (providerRestaurantId).`,
          httpStatus: response.status,
          platformRestaurantId,
        };
      }
      const bound = platformRestaurantId !== undefined ? ` for restaurant ${platformRestaurantId}` : '';
      return { result: 'ok', detail: `PLATFORM_A accepted the login (app key and restaurant secretKey)${bound}.`, httpStatus: response.status, platformRestaurantId };
    } catch (error) {
      return checkOfError(error);
    }
  }

  /** Opens the restaurant's POS on Getir (posStatus 100), which Getir keeps closed until the integrator does. */
  async announcePosReady(credentials: IntegrationCredentials): Promise<PosReadyOutcome> {
    if (!this.config.PLATFORM_A_APP_SECRET_KEY) return { ok: false, retry: false, detail: 'PLATFORM_A_APP_SECRET_KEY is not set: the POS status cannot be sent' };
    const restaurantSecretKey = credentials.secrets.secretKey;
    if (!restaurantSecretKey) return { ok: false, retry: false, detail: 'the integration has no secretKey' };
    try {
      // No token: Getir authenticates this call by the two keys in the body.
      const response = await platformRequest({
        method: 'PUT',
        url: platformUrl(this.config.PLATFORM_A_BASE_URL, PLATFORM_A_POS_STATUS_PATH),
        json: { appSecretKey: this.config.PLATFORM_A_APP_SECRET_KEY, restaurantSecretKey, posStatus: PLATFORM_A_POS_STATUS.OPEN },
        timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
      });
      if (response.status >= 200 && response.status < 300) return { ok: true, detail: 'PLATFORM_A opened the POS (posStatus 100).' };
      return { ok: false, retry: isRetryableStatus(response.status), detail: `${describeError(response)} on ${PLATFORM_A_POS_STATUS_PATH}`, httpStatus: response.status };
    } catch (error) {
      const outcome = outcomeOfError(error);
      return { ok: false, retry: outcome.kind === 'retry', detail: outcome.kind === 'failed' ? outcome.reason : `PLATFORM_A could not be reached: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /**
   * Getir's fallback for missed webhooks, the two periodic lists (exempt from the rate limit):
   * `POST /food-orders/periodic/unapproved` and `/periodic/cancelled` (each an array of food orders).
   * Both or nothing: a failed read makes the poll retry later.
   */
  async fetchFallbackOrders(credentials: IntegrationCredentials): Promise<PlatformAFallbackOrders> {
    const unapproved = await this.readList(credentials, PLATFORM_A_POLL_PATHS.unapproved);
    if (!Array.isArray(unapproved)) return unapproved;
    const cancelled = await this.readList(credentials, PLATFORM_A_POLL_PATHS.cancelled);
    if (!Array.isArray(cancelled)) return cancelled;
    return { kind: 'ok', unapproved, cancelled };
  }

  /**
   * `POST /food-orders/active`: the restaurant's orders not yet finished. Rate limited (unlike the
   * periodic lists): the caller books it in PLATFORM_A_CALL_BUDGET (`poll:active`) first.
   */
  async fetchActiveOrders(credentials: IntegrationCredentials): Promise<PlatformAActiveOrders> {
    const active = await this.readList(credentials, PLATFORM_A_POLL_PATHS.active);
    return Array.isArray(active) ? { kind: 'ok', active } : active;
  }

  /** One polling list, parsed; or why it could not be read. */
  private async readList(credentials: IntegrationCredentials, path: string): Promise<ParsedPlatformOrder[] | PlatformAListRefusal> {
    try {
      const response = await this.call(credentials, 'POST', path);
      if (response.status >= 200 && response.status < 300 && Array.isArray(response.body)) return response.body.map((entry) => parsePlatformAOrder(entry, { restaurantRequired: false }));
      const answer = answerOf(response);
      if (isRetryableStatus(response.status) || (response.status >= 200 && response.status < 300)) return { kind: 'retry', answer, retryAfterMs: response.status === 429 ? (retryAfterMs(response.headers) ?? PLATFORM_A_RATE_LIMIT_BLOCK_MS) : retryAfterMs(response.headers) };
      return { kind: 'failed', answer, reason: `${describeError(response)} on ${path}` };
    } catch (error) {
      const outcome = outcomeOfError(error);
      if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
      if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
      throw error;
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

  private call(credentials: IntegrationCredentials, method: 'GET' | 'POST' | 'PUT', path: string, json?: unknown): Promise<PlatformResponse> {
    return this.sessions.withSession(
      credentials,
      () => this.login(credentials),
      (token) => platformRequest({ method, url: platformUrl(this.config.PLATFORM_A_BASE_URL, path), headers: { token }, json, timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS }),
    );
  }

  private async login(credentials: IntegrationCredentials): Promise<PlatformSession> {
    return (await this.loginAnswer(credentials)).session;
  }

  /** `POST /auth/login`: the session, and the answer (which names the restaurant the key belongs to). */
  private async loginAnswer(credentials: IntegrationCredentials): Promise<{ session: PlatformSession; response: PlatformResponse }> {
    if (!this.config.PLATFORM_A_APP_SECRET_KEY) throw new PlatformNotConfiguredError('PLATFORM_A_APP_SECRET_KEY is not set: PLATFORM_A logins are impossible');
    const restaurantSecretKey = credentials.secrets.secretKey;
    if (!restaurantSecretKey) throw new LoginRejectedError({ httpStatus: null, body: null, error: 'the integration has no secretKey' });
    const response = await platformRequest({
      method: 'POST',
      url: platformUrl(this.config.PLATFORM_A_BASE_URL, '/auth/login'),
      json: { appSecretKey: this.config.PLATFORM_A_APP_SECRET_KEY, restaurantSecretKey },
      timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
    });
    const token = isRecord(response.body) && typeof response.body.token === 'string' ? response.body.token : undefined;
    return { session: sessionFromLogin(response, token, () => Date.now() + PLATFORM_A_TOKEN_TTL_MS), response };
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
