import type { StatusPushAction } from '@courier/domain';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformCallOutcome, PlatformOrderRef } from '../platform-adapter';
import type { PlatformClientConfig } from '../platform-client.config';
import { answerOf, checkOfError, classifyResponse, LoginRejectedError, outcomeOfError, sessionFromLogin } from '../common/outcomes';
import { platformRequest, PlatformResponse, platformUrl } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { PlatformSession, SessionCache } from '../common/session-cache';
import {
  PLATFORM_B_CALL_BUDGET,
  PLATFORM_B_DEFAULT_PREPARATION_MS,
  PLATFORM_B_DEFAULT_REJECT_REASON,
  PLATFORM_B_DEFAULT_TOKEN_TTL_MS,
  PLATFORM_B_REJECT_REASONS,
  WAITING_FOR_ACKNOWLEDGEMENT,
} from './platform-b.assumptions';
import { PlatformBOrderData } from './platform-b.orders';

type Operation = { path: string; body?: Record<string, unknown> } | { skip: string };

/**
 * PLATFORM_B: the Delivery Hero POS middleware (Yemeksepeti in Turkey). Login per chain with user
 * name and password (client credentials, form-encoded); a JWT comes back for `Authorization: Bearer`.
 * Orders are addressed by their token.
 */
export class PlatformBAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_B';
  readonly callBudget = PLATFORM_B_CALL_BUDGET;

  constructor(
    private readonly config: PlatformClientConfig,
    readonly sessions: SessionCache,
    private readonly now: () => number = Date.now,
  ) {}

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    const operation = this.operationFor(order, action, reason);
    if ('skip' in operation) return { kind: 'skipped', reason: operation.skip };
    try {
      const response = await this.sessions.withSession(
        credentials,
        () => this.login(credentials),
        (token) =>
          platformRequest({
            method: 'POST',
            url: platformUrl(this.config.PLATFORM_B_BASE_URL, operation.path),
            headers: { Authorization: `Bearer ${token}` },
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

  private operationFor(order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Operation {
    const data = order.platformData as Partial<PlatformBOrderData>;
    const token = encodeURIComponent(data.token ?? order.platformOrderId);
    const status = (body: Record<string, unknown>): Operation => ({ path: `/v2/order/status/${token}`, body });
    switch (action) {
      case 'VERIFY':
        return status({ status: 'order_accepted', acceptanceTime: this.acceptanceTime(data), remoteOrderId: order.yemekKuryeOrderId });
      case 'PREPARE':
        return data.delivery === 'platform'
          ? { path: `/v2/orders/${token}/preparation-completed` }
          : { skip: 'preparation-completed is only for orders the platform\'s riders carry; this one is delivered by the vendor or picked up' };
      case 'HANDOVER':
        return data.delivery === 'platform' ? { skip: 'the platform\'s rider picks this order up and reports it' } : status({ status: 'order_picked_up' });
      case 'DELIVER':
        return { skip: 'the middleware has no delivered status for the POS to send' };
      case 'CANCEL':
      case 'REJECT':
        return status({ status: 'order_rejected', reason: rejectReason(reason) });
    }
  }

  /** When the order will be ready: the time the order names, when still ahead, else now + 20 min. */
  private acceptanceTime(data: Partial<PlatformBOrderData>): string {
    const expected = data.expectedAt ? Date.parse(data.expectedAt) : Number.NaN;
    const now = this.now();
    return new Date(Number.isFinite(expected) && expected > now ? expected : now + PLATFORM_B_DEFAULT_PREPARATION_MS).toISOString();
  }

  private classify(response: PlatformResponse): PlatformCallOutcome {
    if (response.status === 409) {
      // While the order awaits acknowledgement the middleware is not ready yet: its own rule is to
      // try again every 10 s for up to 5 minutes. A 409 for a cancelled order is final.
      if (JSON.stringify(response.body ?? '').includes(WAITING_FOR_ACKNOWLEDGEMENT)) {
        return {
          kind: 'retry',
          answer: answerOf(response),
          pacing: { rule: 'PLATFORM_B_AWAITING_ACKNOWLEDGEMENT', intervalMs: this.config.PLATFORM_B_ACK_RETRY_INTERVAL_MS, windowMs: this.config.PLATFORM_B_ACK_RETRY_WINDOW_MS },
        };
      }
      return { kind: 'failed', answer: answerOf(response), reason: 'the platform refused the change (HTTP 409): the order is cancelled or in a state that does not allow it' };
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
      if (typeof body.expires_in === 'number' && body.expires_in > 0) return this.now() + body.expires_in * 1000;
      return jwtExpiry(token) ?? this.now() + PLATFORM_B_DEFAULT_TOKEN_TTL_MS;
    });
  }
}

/** The push's reason when it is one of the middleware's codes, else the default code. */
function rejectReason(reason?: string | null): string {
  const code = reason?.trim().toUpperCase();
  return code && (PLATFORM_B_REJECT_REASONS as readonly string[]).includes(code) ? code : PLATFORM_B_DEFAULT_REJECT_REASON;
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
