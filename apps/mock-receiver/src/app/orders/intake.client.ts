import { Inject, Injectable } from '@nestjs/common';
import { CORRELATION_HEADER, currentCorrelationId } from '@courier/logging';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { ReceiverConfig } from '../receiver.config';
import type { TestOrder } from './test-order';

export const INTAKE_PATH = '/webhook/third-party/order';

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

/** POST {SERVICE_API_URL}/webhook/third-party/order with X-API-Key. */
@Injectable()
export class IntakeClient {
  constructor(@Inject(RECEIVER_CONFIG) private readonly config: ReceiverConfig) {}

  get url(): string {
    return `${this.config.SERVICE_API_URL.replace(/\/+$/, '')}${INTAKE_PATH}`;
  }

  async send(order: TestOrder): Promise<IntakeAnswer> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (this.config.SERVICE_API_KEY) headers['X-API-Key'] = this.config.SERVICE_API_KEY;
    const correlationId = currentCorrelationId();
    if (correlationId) headers[CORRELATION_HEADER] = correlationId;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(order),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.SERVICE_TIMEOUT_MS),
      });
    } catch (error) {
      throw new IntakeUnreachableError(this.url, describeFetchError(error));
    }
    const bodyText = await response.text().catch(() => '');
    const contentType = response.headers.get('content-type') ?? undefined;
    return { status: response.status, contentType, bodyText, body: parseBody(bodyText) };
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
