import type { StatusPushAction } from '@courier/domain';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformCallOutcome, PlatformOrderRef } from '../platform-adapter';
import type { PlatformClientConfig } from '../platform-client.config';
import { classifyResponse, isRetryableStatus, networkAnswer } from '../common/outcomes';
import { PlatformNetworkError, platformRequest, PlatformResponse, platformUrl } from '../common/platform-http';
import { PLATFORM_D_API_KEY_HEADER, PLATFORM_D_CALL_BUDGET, PLATFORM_D_STATUS_PATH, PLATFORM_D_STATUSES, platformDMerchantPath } from './platform-d.assumptions';

const NOT_CONFIGURED = 'PLATFORM_D_BASE_URL is not set: PLATFORM_D has no documented host, so it must be configured';

/** PLATFORM_D: Migros Yemek, built on the assumptions of platform-d.assumptions.ts. */
export class PlatformDAdapter implements PlatformAdapter {
  readonly code = 'PLATFORM_D';
  readonly callBudget = PLATFORM_D_CALL_BUDGET;

  constructor(private readonly config: PlatformClientConfig) {}

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    if (!this.config.PLATFORM_D_BASE_URL) return { kind: 'failed', answer: { httpStatus: null, body: null, error: NOT_CONFIGURED }, reason: NOT_CONFIGURED };
    const body: Record<string, unknown> = { merchantId: credentials.settings.providerMerchantId, orderId: order.platformOrderId, status: PLATFORM_D_STATUSES[action] };
    if (reason && (action === 'CANCEL' || action === 'REJECT')) body.reason = reason;
    try {
      return classifyResponse(await this.call(credentials, 'PATCH', PLATFORM_D_STATUS_PATH, body));
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      throw error;
    }
  }

  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    if (!this.config.PLATFORM_D_BASE_URL) return { result: 'not_configured', detail: NOT_CONFIGURED };
    try {
      const response = await this.call(credentials, 'GET', platformDMerchantPath(credentials.settings.providerMerchantId ?? ''));
      if (response.status >= 200 && response.status < 300) return { result: 'ok', detail: 'PLATFORM_D accepted the merchant API key.', httpStatus: response.status };
      if (isRetryableStatus(response.status)) return { result: 'unreachable', detail: `PLATFORM_D answered HTTP ${response.status}; try again later.`, httpStatus: response.status };
      return { result: 'rejected', detail: `PLATFORM_D refused the stored API key (HTTP ${response.status}).`, httpStatus: response.status };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { result: 'unreachable', detail: `PLATFORM_D could not be reached: ${error.message}.` };
      throw error;
    }
  }

  private call(credentials: IntegrationCredentials, method: 'GET' | 'PATCH', path: string, json?: unknown): Promise<PlatformResponse> {
    return platformRequest({
      method,
      url: platformUrl(this.config.PLATFORM_D_BASE_URL!, path),
      headers: { [PLATFORM_D_API_KEY_HEADER]: credentials.secrets.apiKey ?? '' },
      json,
      timeoutMs: this.config.PLATFORM_HTTP_TIMEOUT_MS,
    });
  }
}
