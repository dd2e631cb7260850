import { deadlineFrom } from '../../common/acceptance';
import type { CredentialCheck, IntegrationCredentials, PlatformAdapter } from '../../common/platform-adapter';
import type { PlatformOrders } from '../../common/platform-orders';
import { platformRequest } from '../../common/platform-http';
import { ExamplePlatformCatalog } from './example.catalog';
import { ExamplePlatformStatus } from './example.status';
import { EXAMPLE_PLATFORM } from './example.platform';

/** The example platform gives up on an unanswered order after 5 minutes. */
const ACCEPT_WINDOW_MS = 300_000;

/** The example platform's API: every call authenticated with the store's apiKey. */
export class ExamplePlatformAdapter implements PlatformAdapter {
  readonly code = EXAMPLE_PLATFORM.code;
  readonly orders: PlatformOrders = {
    acceptBy: (order, receivedAt) => (order.state === 'new' ? deadlineFrom(undefined, receivedAt, ACCEPT_WINDOW_MS) : null),
    acceptanceWarningMs: 60_000,
  };
  readonly status: ExamplePlatformStatus;
  readonly catalog: ExamplePlatformCatalog;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.status = new ExamplePlatformStatus(baseUrl, timeoutMs);
    this.catalog = new ExamplePlatformCatalog(baseUrl, timeoutMs);
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
}
