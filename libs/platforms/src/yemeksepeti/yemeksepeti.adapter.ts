import type { StatusPushAction } from '@courier/domain';
import type { PlatformOrder } from '../common/platform-adapter';
import { PLATFORM_B_ACCEPT_WARNING_MS, platformBAcceptBy } from './yemeksepeti.assumptions';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformCallOutcome, PlatformOrderRef } from '../common/platform-adapter';
import type { YemeksepetiClientSettings } from './yemeksepeti.client.config';
import { answerOf, checkOfError, classifyResponse, LoginRejectedError, outcomeOfError, sessionFromLogin } from '../common/outcomes';
import { platformRequest, PlatformResponse, platformUrl } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { PlatformSession, SessionCache } from '../common/session-cache';
import {
  PLATFORM_B_ACCEPTANCE_MARGIN_MS,
  PLATFORM_B_DEFAULT_PREPARATION_MS,
  PLATFORM_B_DEFAULT_REJECT_REASON,
  PLATFORM_B_DEFAULT_TOKEN_TTL_MS,
  PLATFORM_B_MIN_ACCEPTANCE_LEAD_MS,
  PLATFORM_B_REASON_WORDS,
  PLATFORM_B_REJECT_REASONS,
  PLATFORM_B_RETRYABLE_409_STATES,
  PlatformBCallbackUrls,
  PlatformBRejectReason,
} from './yemeksepeti.assumptions';
import { PLATFORM_B } from './yemeksepeti.platform';
import { PlatformBOrderData } from './yemeksepeti.orders';
import { PlatformBAvailability } from './yemeksepeti.availability';
import { PlatformBCatalog } from './yemeksepeti.catalog';

type Operation = { url: string; body?: Record<string, unknown> } | { skip: string };

/** The pacing rule of a 409 the middleware answers while the order is not ready for the call yet. */
export const PLATFORM_B_409_PACING_RULE = 'PLATFORM_B_409_NOT_YET';

/**
 * PLATFORM_B: the Delivery Hero POS middleware (Yemeksepeti in Turkey). Login per chain with user
 * name and password (client credentials, form-encoded); a JWT comes back for `Authorization: Bearer`.
 * Orders are addressed by their token; each status goes where the order's `callbackUrls` say.
 */
export class PlatformBAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_B';
  readonly callBudget = PLATFORM_B.callBudget;
  readonly availability = new PlatformBAvailability({ config: () => this.config, sessions: () => this.sessions, login: (credentials) => this.login(credentials) });
  readonly catalog = new PlatformBCatalog();

  /** The platform's accept-by rule (yemeksepeti.assumptions.ts) with this deployment's window. */
  acceptBy(order: PlatformOrder, receivedAt: Date): Date | null {
    return platformBAcceptBy(order, receivedAt, this.config.PLATFORM_B_ACCEPT_WINDOW_MS);
  }

  get acceptanceWarningMs(): number {
    return this.config.PLATFORM_B_ACCEPT_WARNING_MS ?? PLATFORM_B_ACCEPT_WARNING_MS;
  }

  constructor(
    private readonly config: YemeksepetiClientSettings,
    readonly sessions: SessionCache,
    private readonly now: () => number = Date.now,
  ) {}

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const data = order.platformData as Partial<PlatformBOrderData>;
    const token = data.token ?? order.platformOrderId;
    const operation = this.operationFor(data, token, order.yemekKuryeOrderId, action, reason);
    if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
    try {
      const response = await this.sessions.withSession(
        credentials,
        () => this.login(credentials),
        (sessionToken) =>
          platformRequest({
            method: 'POST',
            url: operation.url,
            headers: { Authorization: `Bearer ${sessionToken}` },
            json: operation.body,
            timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
          }),
      );
      return this.classify(response);
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    try {
      // A real login, not the cached token: the check must prove the stored credentials work now.
      await this.login(credentials);
      return { result: 'ok', detail: 'PLATFORM_B accepted the login (username and password).', httpStatus: 200 };
    } catch (error) {
      return checkOfError(error);
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

  private async login(credentials: IntegrationCredentials): Promise<PlatformSession> {
    const username = credentials.settings.username;
    const password = credentials.secrets.password;
    if (!username || !password) throw new LoginRejectedError({ httpStatus: null, body: null, error: 'the integration has no username or password' });
    const response = await platformRequest({
      method: 'POST',
      url: platformUrl(this.config.PLATFORM_B_BASE_URL, '/v2/login'),
      form: { username, password, grant_type: 'client_credentials' },
      timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
    });
    const body = isRecord(response.body) ? response.body : {};
    const token = typeof body.access_token === 'string' ? body.access_token : undefined;
    return sessionFromLogin(response, token, () => {
      const expiresIn = typeof body.expires_in === 'string' ? Number(body.expires_in) : body.expires_in;
      if (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0) return this.now() + expiresIn * 1000;
      return jwtExpiry(token) ?? this.now() + PLATFORM_B_DEFAULT_TOKEN_TTL_MS;
    });
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

/** `exp` of a JWT (seconds) as epoch ms; the signature is the platform's business, not ours. */
export function jwtExpiry(token: string | undefined): number | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return isRecord(claims) && typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
