import type { StatusPushAction } from '@courier/domain';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformCallOutcome, PlatformOrderRef } from '../platform-adapter';
import type { PlatformClientConfig } from '../platform-client.config';
import { answerOf, checkOfError, classifyResponse, LoginRejectedError, outcomeOfError, PlatformNotConfiguredError, sessionFromLogin } from '../common/outcomes';
import { platformRequest, PlatformResponse, platformUrl, retryAfterMs } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { PlatformSession, SessionCache } from '../common/session-cache';
import {
  GETIR_COURIER,
  PLATFORM_A_ALREADY_DONE,
  PLATFORM_A_CALL_BUDGET,
  PLATFORM_A_DEFAULT_CANCEL_NOTE,
  PLATFORM_A_RATE_LIMIT_BLOCK_MS,
  PLATFORM_A_SPACED_ACTIONS,
  PLATFORM_A_TOKEN_TTL_MS,
  PLATFORM_A_TOO_EARLY_CODE,
  PLATFORM_A_TOO_EARLY_RETRY_MS,
  RESTAURANT_COURIER,
} from './platform-a.assumptions';
import { PlatformAOrderData } from './platform-a.orders';

/** The `code` of Getir's error envelope `{ code, error, message, details, source }`. */
function errorCode(response: PlatformResponse): number | undefined {
  const code = isRecord(response.body) ? response.body.code : undefined;
  return typeof code === 'number' ? code : typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : undefined;
}

/**
 * PLATFORM_A: Getir Yemek's food external API. Login with the integrator's app key and the
 * restaurant's secretKey; the token goes in a `token` header and lives 3600 s.
 */
export class PlatformAAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_A';
  readonly callBudget = PLATFORM_A_CALL_BUDGET;

  constructor(
    private readonly config: PlatformClientConfig,
    readonly sessions: SessionCache,
  ) {}

  stepSpacing(holdMs: number) {
    return { actions: PLATFORM_A_SPACED_ACTIONS, ms: holdMs };
  }

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const data = order.platformData as PlatformAOrderData;
    const operation = this.operationFor(action, data);
    if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
    const orderPath = `/food-orders/${encodeURIComponent(order.platformOrderId)}`;
    try {
      let body: unknown;
      if (operation.path === 'cancel') {
        const options = await this.call(credentials, 'GET', `${orderPath}/cancel-options`);
        if (options.status < 200 || options.status >= 300) return this.classify(options, action);
        body = { cancelNote: reason ?? PLATFORM_A_DEFAULT_CANCEL_NOTE, cancelReasonId: chooseCancelReason(options.body, reason) };
      }
      return this.classify(await this.call(credentials, 'POST', `${orderPath}/${operation.path}`, body), action);
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    try {
      // A real login, not the cached token: the check must prove the stored credentials work now.
      await this.login(credentials);
      return { result: 'ok', detail: 'PLATFORM_A accepted the login (app key and restaurant secretKey).', httpStatus: 200 };
    } catch (error) {
      return checkOfError(error);
    }
  }

  private operationFor(action: StatusPushAction, data: PlatformAOrderData): { path: string } | { skip: string } {
    switch (action) {
      case 'VERIFY':
        return { path: data.isScheduled ? 'verify-scheduled' : 'verify' };
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

  private classify(response: PlatformResponse, action: StatusPushAction): PlatformCallOutcome {
    const code = errorCode(response);
    if (code === PLATFORM_A_TOO_EARLY_CODE) return { kind: 'retry', answer: answerOf(response), retryAfterMs: PLATFORM_A_TOO_EARLY_RETRY_MS };
    if (response.status === 429) return { kind: 'retry', answer: answerOf(response), retryAfterMs: retryAfterMs(response.headers) ?? PLATFORM_A_RATE_LIMIT_BLOCK_MS };
    return classifyResponse(response, () => code !== undefined && PLATFORM_A_ALREADY_DONE[action].includes(code));
  }

  private call(credentials: IntegrationCredentials, method: 'GET' | 'POST', path: string, json?: unknown): Promise<PlatformResponse> {
    return this.sessions.withSession(
      credentials,
      () => this.login(credentials),
      (token) => platformRequest({ method, url: platformUrl(this.config.PLATFORM_A_BASE_URL, path), headers: { token }, json, timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS }),
    );
  }

  private async login(credentials: IntegrationCredentials): Promise<PlatformSession> {
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
    return sessionFromLogin(response, token, () => Date.now() + PLATFORM_A_TOKEN_TTL_MS);
  }
}

/** A reason the platform offers: the one the caller named (by id or text), else the first offered. */
function chooseCancelReason(body: unknown, reason?: string | null): string | undefined {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.cancelOptions) ? body.cancelOptions : [];
  const options = list.filter(isRecord).map((option) => ({ id: String(option.id ?? ''), text: JSON.stringify(option.message ?? '').toLowerCase() }));
  const wanted = reason?.trim().toLowerCase();
  const match = wanted ? options.find((option) => option.id.toLowerCase() === wanted || option.text.includes(wanted)) : undefined;
  return (match ?? options[0])?.id || undefined;
}
