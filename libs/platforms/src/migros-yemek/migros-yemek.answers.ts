import type { IntegrationCredentials, PlatformAnswer, PlatformCallOutcome } from '../common/platform-adapter';
import { isRetryableStatus } from '../common/outcomes';
import { isRecord } from '../common/payload-reader';
import { PlatformResponse, retryAfterMs } from '../common/platform-http';
import type { PlatformDCipherMode } from './migros-yemek.assumptions';
import { isPlatformDEnvelope, openPlatformDValue } from './migros-yemek.crypto';

/** A Migros answer as the adapter reads it: the response, its body (opened when it came encrypted), its envelope. */
export interface PlatformDAnswerRead {
  response: PlatformResponse;
  body: unknown;
  success?: boolean;
  errorCode?: string;
  errorDetail?: string;
}

/** The adapter's own calls (XApiKey, encrypted POST bodies, the envelope), lent to its capabilities. */
export interface PlatformDCalls {
  get: (credentials: IntegrationCredentials, path: string) => Promise<PlatformDAnswerRead>;
  post: (credentials: IntegrationCredentials, path: string, body: Record<string, unknown>) => Promise<PlatformDAnswerRead>;
}

/** The answer with an encrypted `{ value }` body opened in either mode (M-py, AJ decrypt such answers); unreadable ones stay as they came. */
export function readAnswer(response: PlatformResponse, key: string, mode: PlatformDCipherMode): PlatformDAnswerRead {
  let body = response.body;
  if (isPlatformDEnvelope(body)) body = openPlatformDValue(body.value, key, mode)?.json ?? body;
  const envelope = isRecord(body) ? body : {};
  const error = isRecord(envelope.errorMessage) ? envelope.errorMessage : {};
  return {
    response,
    body,
    success: typeof envelope.success === 'boolean' ? envelope.success : undefined,
    errorCode: error.errorCode === undefined || error.errorCode === null ? undefined : String(error.errorCode),
    errorDetail: typeof error.errorDetail === 'string' ? error.errorDetail : typeof error.errorTitle === 'string' ? error.errorTitle : undefined,
  };
}

export function answerOf(answer: PlatformDAnswerRead): PlatformAnswer {
  return { httpStatus: answer.response.status, body: answer.body };
}

export function succeeded(answer: PlatformDAnswerRead): boolean {
  return answer.response.status >= 200 && answer.response.status < 300 && answer.success !== false;
}

/** The adapter's reading of a Migros answer: done on 2xx without `success: false`; 408/429/5xx retry; anything else final. */
export function outcomeOf(answer: PlatformDAnswerRead): PlatformCallOutcome {
  const status = answer.response.status;
  if (succeeded(answer)) return { kind: 'done', answer: answerOf(answer) };
  if (isRetryableStatus(status)) return { kind: 'retry', answer: answerOf(answer), retryAfterMs: retryAfterMs(answer.response.headers) };
  const why = answer.errorCode ? `${answer.errorCode}${answer.errorDetail ? `: ${answer.errorDetail}` : ''}` : `HTTP ${status}`;
  return { kind: 'failed', answer: answerOf(answer), reason: status === 401 || status === 403 ? `PLATFORM_D refused the API key (${why})` : `PLATFORM_D refused the call (${why})` };
}
