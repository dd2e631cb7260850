import http, { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { currentCorrelationId } from '@courier/logging';

/** A request to a platform API. `json` and `form` are mutually exclusive bodies. */
export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  timeoutMs: number;
}

export interface PlatformResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, else the text (bounded), else null. */
  body: unknown;
}

/** No HTTP answer at all: connection refused or reset, DNS failure, timeout. Always worth a retry. */
export class PlatformNetworkError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'PlatformNetworkError';
  }
}

/**
 * The request cannot be sent as built, before any network I/O: a header value holds characters a
 * header field cannot carry (a stored credential the adapter puts into a header). Final: sending it
 * again cannot succeed. The message names the header, never its value (it is usually a secret).
 */
export class UnsendableRequestError extends Error {
  constructor(readonly header: string) {
    super(`the value of the ${header} header holds characters an HTTP header cannot carry (visible ASCII only)`);
    this.name = 'UnsendableRequestError';
  }
}

/**
 * What a header value may hold to go out as it is: ASCII, SP and HTAB included (RFC 9110 field-value).
 * Node refuses characters above U+00FF with ERR_INVALID_CHAR and sends U+0080-U+00FF as Latin-1
 * bytes, which the platform would read as another value: both are refused before the call.
 */
const SENDABLE_HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/** Node's errors for a header it will not write (thrown by http.request before any I/O). */
const INVALID_HEADER_CODES = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE']);

/** Answers are kept for operators, bounded so a platform cannot fill our memory or tables. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

// Keep-alive: a busy integration makes many calls to the same host; one TLS handshake per call would
// dominate the latency. Sockets are shared per process.
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

/** `base` (may carry a path prefix) + `path` (starts with /). */
export function platformUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

/**
 * One HTTP call with node:http (no redirects followed, certificates verified, a hard timeout).
 * Resolves with any HTTP answer, 4xx and 5xx included; rejects with PlatformNetworkError (no answer:
 * worth a retry) or UnsendableRequestError (a header that cannot be sent: final).
 * Carries the correlation id of the request, message or task being handled as `X-Correlation-Id`
 * (none outside such a scope), so a platform's support can find our call by it.
 */
export async function platformRequest(request: PlatformRequest): Promise<PlatformResponse> {
  try {
    return await sendOnce(request);
  } catch (error) {
    // A kept-alive socket the server closed while idle: the request never reached it (no answer
    // began), so sending it again on a new connection cannot do it twice. Node's documented remedy.
    if (error instanceof StaleSocketError) return sendOnce(request);
    throw error;
  }
}

/** A reused keep-alive socket reset before any answer: the server had closed it while idle. */
class StaleSocketError extends PlatformNetworkError {}

function sendOnce(request: PlatformRequest): Promise<PlatformResponse> {
  let body: Buffer | undefined;
  const correlationId = currentCorrelationId();
  const headers: Record<string, string> = { Accept: 'application/json', ...(correlationId ? { 'X-Correlation-Id': correlationId } : {}), ...request.headers };
  if (request.json !== undefined) {
    body = Buffer.from(JSON.stringify(request.json));
    headers['Content-Type'] = 'application/json';
  } else if (request.form) {
    body = Buffer.from(new URLSearchParams(request.form).toString());
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  if (body) headers['Content-Length'] = String(body.length);
  const unsendable = Object.entries(headers).find(([, value]) => !SENDABLE_HEADER_VALUE.test(value));
  if (unsendable) return Promise.reject(new UnsendableRequestError(unsendable[0]));

  return new Promise<PlatformResponse>((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      reject(new PlatformNetworkError(`invalid platform URL`));
      return;
    }
    const secure = url.protocol === 'https:';
    let answered = false;
    let call: http.ClientRequest;
    try {
      call = (secure ? https : http).request(url, { method: request.method, headers, agent: secure ? httpsAgent : httpAgent }, onResponse);
    } catch (error) {
      // A header Node will not write (a name, or a value the check above let through): nothing was sent.
      const code = (error as { code?: string }).code;
      if (code && INVALID_HEADER_CODES.has(code)) reject(new UnsendableRequestError(/\["?([^"\]]+)"?\]/.exec((error as Error).message)?.[1] ?? '(unnamed)'));
      else reject(error);
      return;
    }
    function onResponse(response: http.IncomingMessage) {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parseBody(Buffer.concat(chunks), response.headers['content-type']) });
      });
      response.on('error', (error) => fail(error));
    }
    const fail = (error: Error & { code?: string }) => {
      clearTimeout(timer);
      call.destroy();
      if (error instanceof PlatformNetworkError) reject(error);
      else if (call.reusedSocket && !answered && error.code === 'ECONNRESET') reject(new StaleSocketError(error.message, error.code));
      else reject(new PlatformNetworkError(error.message, error.code));
    };
    const timer = setTimeout(() => fail(new PlatformNetworkError(`no answer within ${request.timeoutMs} ms`, 'ETIMEDOUT')), request.timeoutMs);
    call.on('error', fail);
    call.end(body);
  });
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return null;
  const text = raw.toString('utf8');
  if (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      /* not JSON after all: keep the text */
    }
  }
  return text.length > 4096 ? `${text.slice(0, 4096)}...` : text;
}

/** Seconds or an HTTP date in Retry-After, as milliseconds from now (undefined when absent or unreadable). */
export function retryAfterMs(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const value = headers['retry-after'];
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
