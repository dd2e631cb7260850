import type { StatusPushAction } from '@courier/domain';
import { deadlineFrom } from '../../common/acceptance';
import { classifyResponse, networkAnswer, outcomeOfError } from '../../common/outcomes';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter, PlatformCallOutcome, PlatformOrder, PlatformOrderRef } from '../../common/platform-adapter';
import { PlatformNetworkError, platformRequest } from '../../common/platform-http';
import { ExamplePlatformCatalog } from './example.catalog';
import { EXAMPLE_PLATFORM } from './example.platform';

/** The example platform gives up on an unanswered order after 5 minutes. */
const ACCEPT_WINDOW_MS = 300_000;

/** The example platform's API: one status call per action, authenticated with the store's apiKey. */
export class ExamplePlatformAdapter implements PlatformAdapter {
  readonly code = EXAMPLE_PLATFORM.code;
  readonly acceptanceWarningMs = 60_000;
  readonly catalog: ExamplePlatformCatalog;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.catalog = new ExamplePlatformCatalog(baseUrl, timeoutMs);
  }

  async sendStatus(credentials: IntegrationCredentials, order: PlatformOrderRef, action: StatusPushAction, reason?: string | null): Promise<PlatformCallOutcome> {
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

  async checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck> {
    try {
      const response = await platformRequest({ method: 'GET', url: `${this.baseUrl}/me`, headers: { 'x-api-key': credentials.secrets.apiKey ?? '' }, timeoutMs: this.timeoutMs });
      if (response.status === 200) return { result: 'ok', detail: 'The example platform accepted the key.', httpStatus: 200 };
      return { result: 'rejected', detail: `The example platform refused the key (HTTP ${response.status}).`, httpStatus: response.status };
    } catch {
      return { result: 'unreachable', detail: 'The example platform could not be reached.' };
    }
  }

  acceptBy(order: PlatformOrder, receivedAt: Date): Date | null {
    return order.state === 'new' ? deadlineFrom(undefined, receivedAt, ACCEPT_WINDOW_MS) : null;
  }
}
