import type { CredentialCheck, IntegrationCredentials, PlatformAdapter } from '../common/platform-adapter';
import type { PlatformOrders } from '../common/platform-orders';
import type { YemeksepetiClientSettings } from './yemeksepeti.client.config';
import { checkOfError, LoginRejectedError, sessionFromLogin } from '../common/outcomes';
import { platformRequest, PlatformResponse, platformUrl } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { PlatformSession, SessionCache } from '../common/session-cache';
import { PLATFORM_B_ACCEPT_WARNING_MS, PLATFORM_B_DEFAULT_TOKEN_TTL_MS, platformBAcceptBy } from './yemeksepeti.assumptions';
import { PLATFORM_B } from './yemeksepeti.platform';
import { PlatformBStatus } from './yemeksepeti.status';
import { PlatformBAvailability } from './yemeksepeti.availability';
import { PlatformBCatalog } from './yemeksepeti.catalog';

/** A call with the chain's session (login, `Authorization: Bearer`, a 401 logs in again), lent to the capabilities. */
export type PlatformBCall = (credentials: IntegrationCredentials, method: 'GET' | 'POST' | 'PUT', url: string, json?: unknown) => Promise<PlatformResponse>;

/**
 * PLATFORM_B: the Delivery Hero POS middleware (Yemeksepeti in Turkey). Login per chain with user
 * name and password (client credentials, form-encoded); a JWT comes back for `Authorization: Bearer`.
 * Its capabilities (yemeksepeti.status.ts, yemeksepeti.availability.ts, yemeksepeti.catalog.ts) use that session.
 */
export class PlatformBAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_B';
  readonly callBudget = PLATFORM_B.callBudget;
  readonly orders: PlatformOrders;
  readonly status: PlatformBStatus;
  readonly availability: PlatformBAvailability;
  readonly catalog = new PlatformBCatalog();

  constructor(
    private readonly config: YemeksepetiClientSettings,
    readonly sessions: SessionCache,
    private readonly now: () => number = Date.now,
  ) {
    // The platform's accept-by rule (yemeksepeti.assumptions.ts) with this deployment's window.
    this.orders = {
      acceptBy: (order, receivedAt) => platformBAcceptBy(order, receivedAt, config.PLATFORM_B_ACCEPT_WINDOW_MS),
      acceptanceWarningMs: config.PLATFORM_B_ACCEPT_WARNING_MS ?? PLATFORM_B_ACCEPT_WARNING_MS,
    };
    const call: PlatformBCall = (credentials, method, url, json) => this.call(credentials, method, url, json);
    this.status = new PlatformBStatus(config, call, now);
    this.availability = new PlatformBAvailability(call, config.PLATFORM_B_BASE_URL);
  }

  /** A call with the chain's session (`Authorization: Bearer`; a 401 logs in again). */
  private call(credentials: IntegrationCredentials, method: 'GET' | 'POST' | 'PUT', url: string, json?: unknown): Promise<PlatformResponse> {
    return this.sessions.withSession(
      credentials,
      () => this.login(credentials),
      (sessionToken) => platformRequest({ method, url, headers: { Authorization: `Bearer ${sessionToken}` }, json, timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS }),
    );
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
