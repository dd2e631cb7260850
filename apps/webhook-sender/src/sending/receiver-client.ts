import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { assertPublicUrl, HostResolver, UrlPolicyError } from '@courier/http';
import { answerVerdict, networkFailure } from './delivery-attempt.decisions';

export interface ReceiverClientOptions {
  /** WEBHOOK_ALLOW_INSECURE_URLS: plain http and non-public addresses allowed (development only). */
  allowInsecure: boolean;
  /** WEBHOOK_ALLOWED_INSECURE_ORIGINS: exact origins allowed over http and on non-public addresses. */
  allowedInsecureOrigins?: readonly string[];
  resolve: HostResolver;
  /** Trusted CAs instead of Node's bundle (tests only: a receiver with a test CA's certificate). */
  ca?: string | Buffer | Array<string | Buffer>;
}

export interface ReceiverPost {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
}

/** How an exchange ended. `statusCode` is set whenever the receiver answered (2xx or not). */
export interface ReceiverOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed, safe to show to the customer; null on success. */
  error: string | null;
}

class ExchangeTimeout extends Error {
  readonly code = 'ETIMEDOUT';
}

/** A lookup that answers only with the addresses the URL policy checked (no second resolution to race). */
function checkedLookup(addresses: string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === 'object' && options !== null ? options.family : undefined;
    const usable = addresses.filter((address) => !family || isIP(address) === family);
    const chosen = usable.length > 0 ? usable : addresses;
    if (typeof options === 'object' && options !== null && options.all) {
      (callback as (error: NodeJS.ErrnoException | null, addresses: Array<{ address: string; family: number }>) => void)(
        null,
        chosen.map((address) => ({ address, family: isIP(address) })),
      );
    } else {
      callback(null, chosen[0], isIP(chosen[0]));
    }
  };
}

/**
 * POSTs webhook bodies to customer receivers, safely: the URL policy runs at send time (https only,
 * every resolved address public, IPv4-mapped forms included) and the socket connects to an address
 * that was checked, through a lookup that returns only those addresses, while TLS still verifies the
 * certificate against the host name (SNI and Host stay the name). No redirect is followed, the
 * whole exchange (resolution included) is bounded by the timeout, and only 2xx is success.
 *
 * Connections are kept alive per host: a pooled socket was opened to a checked address, and every
 * request checks the host's current addresses again before it may use one.
 */
export class ReceiverClient {
  private readonly httpAgent = new http.Agent({ keepAlive: true, scheduling: 'lifo', maxFreeSockets: 64 });
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: ReceiverClientOptions) {
    this.httpsAgent = new https.Agent({ keepAlive: true, scheduling: 'lifo', maxFreeSockets: 64, rejectUnauthorized: true, ...(options.ca ? { ca: options.ca } : {}) });
  }

  async post(request: ReceiverPost): Promise<ReceiverOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let addresses: string[];
    let url: URL;
    try {
      const checked = await assertPublicUrl(request.url, {
        allowInsecure: this.options.allowInsecure,
        allowedInsecureOrigins: this.options.allowedInsecureOrigins,
        resolve: this.options.resolve,
        resolveTimeoutMs: Math.min(3_000, request.timeoutMs),
        resolveWhenInsecure: true,
      });
      url = checked.url;
      addresses = checked.addresses;
    } catch (error) {
      if (!(error instanceof UrlPolicyError)) throw error;
      return { ok: false, statusCode: null, latencyMs: elapsed(), error: `URL refused: ${error.message}` };
    }
    const remaining = request.timeoutMs - (performance.now() - started);
    if (remaining <= 0) return { ok: false, statusCode: null, latencyMs: elapsed(), error: `timed out after ${request.timeoutMs} ms` };

    let outcome = await this.exchange(url, addresses, request, remaining);
    // A kept-alive socket the receiver closed just as we reused it: the request never reached it.
    if (outcome.staleSocket && performance.now() - started < request.timeoutMs) {
      outcome = await this.exchange(url, addresses, request, request.timeoutMs - (performance.now() - started));
    }
    return { ok: outcome.ok, statusCode: outcome.statusCode, error: outcome.error, latencyMs: elapsed() };
  }

  /** Closes pooled connections (on shutdown). */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private exchange(url: URL, addresses: string[], request: ReceiverPost, timeoutMs: number): Promise<{ ok: boolean; statusCode: number | null; error: string | null; staleSocket?: boolean }> {
    const secure = url.protocol === 'https:';
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: { ok: boolean; statusCode: number | null; error: string | null; staleSocket?: boolean }) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      const requestOptions: https.RequestOptions = {
        method: 'POST',
        host: hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { ...request.headers, 'Content-Length': String(request.body.length), Host: url.host },
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: checkedLookup(addresses),
      };
      const outgoing = (secure ? https : http).request(requestOptions, (response) => {
        const status = response.statusCode ?? 0;
        const verdict = answerVerdict(status);
        if (verdict.ok) {
          // Success is decided by the status line; the body is drained so the socket can be reused.
          response.on('end', () => clearTimeout(timer));
          response.on('error', () => undefined);
          response.resume();
          finish({ ok: true, statusCode: status, error: null });
          return;
        }
        // Only the status line is recorded, never the receiver's body, reason phrase or Location:
        // lastError is shown to the customer, and a receiver URL that reaches an internal service
        // (the one-machine mode, a development setting) must not read its answers back.
        clearTimeout(timer);
        finish({ ok: false, statusCode: status, error: verdict.error });
        response.destroy();
      });
      const timer = setTimeout(() => outgoing.destroy(new ExchangeTimeout('timeout')), Math.max(1, Math.ceil(timeoutMs)));
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (error instanceof ExchangeTimeout) return finish({ ok: false, statusCode: null, error: `timed out after ${request.timeoutMs} ms` });
        const stale = outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        finish({ ok: false, statusCode: null, error: networkFailure(error), staleSocket: stale });
      });
      outgoing.end(request.body);
    });
  }
}
