import type { CredentialCheck, IntegrationCredentials, ParsedPlatformOrder, PlatformAdapter, PlatformAnswer, PosReadyOutcome } from '../common/platform-adapter';
import type { PlatformOrders } from '../common/platform-orders';
import type { GetirClientSettings } from './getir.client.config';
import { answerOf, checkOfError, isRetryableStatus, LoginRejectedError, outcomeOfError, PlatformNotConfiguredError, sessionFromLogin } from '../common/outcomes';
import { platformRequest, PlatformResponse, platformUrl, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { PlatformSession, SessionCache } from '../common/session-cache';
import {
  PLATFORM_A_ACCEPT_WARNING_MS,
  PLATFORM_A_LOGIN_RESTAURANT_FIELD,
  PLATFORM_A_POS_STATUS,
  PLATFORM_A_POS_STATUS_PATH,
  PLATFORM_A_POLL_PATHS,
  PLATFORM_A_RATE_LIMIT_BLOCK_MS,
  PLATFORM_A_TOKEN_TTL_MS,
  platformAAcceptBy,
} from './getir.assumptions';
import { PLATFORM_A } from './getir.platform';
import { parsePlatformAOrder } from './getir.orders';
import { describeError, PlatformAStatus } from './getir.status';
import { PlatformAAvailability } from './getir.availability';
import { PlatformACatalog } from './getir.catalog';

/** A call with the restaurant's session (login, `token` header, a 401 logs in again), for the capabilities' calls. */
export type PlatformACall = (credentials: IntegrationCredentials, method: 'GET' | 'POST' | 'PUT', path: string, json?: unknown) => Promise<PlatformResponse>;

/** Why a fallback list could not be read. */
export type PlatformAListRefusal = { kind: 'retry'; answer: PlatformAnswer; retryAfterMs?: number } | { kind: 'failed'; answer: PlatformAnswer; reason: string };

/** What Getir's two periodic polling endpoints listed, parsed; or why they could not be read. */
export type PlatformAFallbackOrders = { kind: 'ok'; unapproved: ParsedPlatformOrder[]; cancelled: ParsedPlatformOrder[] } | PlatformAListRefusal;

/** What `POST /food-orders/active` listed, parsed; or why it could not be read. */
export type PlatformAActiveOrders = { kind: 'ok'; active: ParsedPlatformOrder[] } | PlatformAListRefusal;

/**
 * PLATFORM_A: Getir Yemek's food external API. Login with the integrator's app key and the
 * restaurant's secretKey; the token goes in a `token` header and lives 1 h (a 401 logs in again).
 * Its capabilities (getir.status.ts, getir.availability.ts, getir.catalog.ts) make their calls with that session.
 */
export class PlatformAAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_A';
  readonly callBudget = PLATFORM_A.callBudget;
  readonly orders: PlatformOrders;
  readonly status: PlatformAStatus;
  readonly availability: PlatformAAvailability;
  readonly catalog: PlatformACatalog;

  constructor(
    private readonly config: GetirClientSettings,
    readonly sessions: SessionCache,
  ) {
    const call: PlatformACall = (credentials, method, path, json) => this.call(credentials, method, path, json);
    // The platform's accept-by rule (getir.assumptions.ts) with this deployment's window.
    this.orders = {
      acceptBy: (order, receivedAt) => platformAAcceptBy(order, receivedAt, config.PLATFORM_A_ACCEPT_WINDOW_MS),
      acceptanceWarningMs: config.PLATFORM_A_ACCEPT_WARNING_MS ?? PLATFORM_A_ACCEPT_WARNING_MS,
    };
    this.status = new PlatformAStatus(config, call);
    this.availability = new PlatformAAvailability(call);
    this.catalog = new PlatformACatalog(call);
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

