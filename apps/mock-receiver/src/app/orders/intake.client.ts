import { Inject, Injectable } from '@nestjs/common';
import createClient, { Client } from 'openapi-fetch';
import { CORRELATION_HEADER, currentCorrelationId } from '@courier/logging';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { ReceiverConfig } from '../receiver.config';
import type { paths } from './intake-api.openapi';
import type { IntakeOrder, TestOrder } from './test-order';

export const INTAKE_PATH = '/webhook/third-party/order' satisfies keyof paths;

/**
 * A test order has the document's fields (TestOrder is derived from it) with its values as given,
 * valid or not: the service's validation judges them.
 */
function asIntakeOrder(order: TestOrder): IntakeOrder {
  return order as IntakeOrder;
}

/** The service's answer to an order, passed back to the caller as it is. */
export interface IntakeAnswer {
  status: number;
  contentType?: string;
  bodyText: string;
  /** bodyText parsed when it is JSON, else the text itself. */
  body: unknown;
}

/** The service could not be reached (refused, timed out, DNS...). */
export class IntakeUnreachableError extends Error {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`Could not reach ${url}: ${reason}`);
    this.name = 'IntakeUnreachableError';
  }
}

/**
 * POST {SERVICE_API_URL}/webhook/third-party/order with X-API-Key, through a client typed from the
 * published intake document (openapi-fetch): the document is what integrators build their clients
 * from, and this one proves it by use.
 */
@Injectable()
export class IntakeClient {
  private readonly client: Client<paths>;

  constructor(@Inject(RECEIVER_CONFIG) private readonly config: ReceiverConfig) {
    this.client = createClient<paths>({ baseUrl: this.baseUrl });
  }

  private get baseUrl(): string {
    return this.config.SERVICE_API_URL.replace(/\/+$/, '');
  }

  get url(): string {
    return `${this.baseUrl}${INTAKE_PATH}`;
  }

  async send(order: TestOrder): Promise<IntakeAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.config.SERVICE_API_KEY) headers['X-API-Key'] = this.config.SERVICE_API_KEY;
    const correlationId = currentCorrelationId();
    if (correlationId) headers[CORRELATION_HEADER] = correlationId;
    // The answer goes back to the caller byte for byte: read from a copy, whatever openapi-fetch parses.
    let bodyText: Promise<string> = Promise.resolve('');
    let response: Response;
    try {
      ({ response } = await this.client.POST(INTAKE_PATH, {
        body: asIntakeOrder(order),
        headers,
        parseAs: 'stream',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.SERVICE_TIMEOUT_MS),
        fetch: async (request) => {
          const answer = await fetch(request);
          bodyText = answer.clone().text().catch(() => '');
          return answer;
        },
      }));
    } catch (error) {
      throw new IntakeUnreachableError(this.url, describeFetchError(error));
    }
    const text = await bodyText;
    const contentType = response.headers.get('content-type') ?? undefined;
    return { status: response.status, contentType, bodyText: text, body: parseBody(text) };
  }
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Duck-typed: fetch's errors come from another realm under jest, so instanceof Error is unreliable. */
function describeFetchError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { name, message, cause } = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  return cause?.code ?? cause?.message ?? message ?? String(error);
}
