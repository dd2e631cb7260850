import type { StatusPushAction } from '@courier/domain';
import { classifyResponse, networkAnswer, outcomeOfError } from '../../common/outcomes';
import type { IntegrationCredentials, PlatformCallOutcome, PlatformOrderRef } from '../../common/platform-adapter';
import { PlatformNetworkError, platformRequest } from '../../common/platform-http';
import type { PlatformStatus } from '../../common/platform-status';

/** The example platform's status calls: one `PUT /orders/{id}/status` per action, authenticated with the store's apiKey. */
export class ExamplePlatformStatus implements PlatformStatus {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async send(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
    try {
      const response = await platformRequest({
        method: 'PUT',
        url: `${this.baseUrl}/orders/${encodeURIComponent(order.platformOrderId)}/status`,
        headers: { 'x-api-key': credentials.secrets.apiKey ?? '' },
        json: { action, reason: reason ?? null },
        timeoutMs: this.timeoutMs,
      });
      return classifyResponse(response);
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return outcomeOfError(error);
    }
  }
}
