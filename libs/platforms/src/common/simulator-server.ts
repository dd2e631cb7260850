import http, { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as a simulator sees it (body parsed from JSON, or from a form where the platform takes one). */
export interface SimulatorRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface SimulatorResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Every request a simulator answered, with its answer: tests count and inspect the platform calls. */
export interface RecordedCall extends SimulatorRequest {
  at: number;
  status: number;
  answer: unknown;
}

/** An error answer injected for the next matching requests. */
export interface InjectedFault {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests get it (default 1). */
  times?: number;
  /** Which requests: a method + path test (default every request but the simulator's own admin routes). */
  match?: (request: SimulatorRequest) => boolean;
}

export const ADMIN_PREFIX = '/_simulator';

/**
 * The HTTP side shared by the platform simulators: a node:http server on 127.0.0.1, a call log, and
 * the failures tests need — injected error answers (`failNext`), a platform that is down (every
 * connection reset: `setDown`), a slow platform (`latencyMs`). Subclasses route the platform's API.
 */
export abstract class SimulatorServer {
  readonly calls: RecordedCall[] = [];
  latencyMs = 0;
  private readonly faults: Array<InjectedFault & { left: number }> = [];
  private server?: http.Server;
  private readonly sockets = new Set<Socket>();
  private down = false;
  baseUrl = '';

  /** Starts on 127.0.0.1 (port 0: a free one); resolves with the base URL. */
  async start(port = 0): Promise<string> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 5_000;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Down: every request is answered by a reset connection (a network error for the client). */
  setDown(down: boolean): void {
    this.down = down;
    if (down) for (const socket of this.sockets) socket.destroy();
  }

  failNext(fault: InjectedFault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Calls of the platform API (admin routes excluded) matching a method and a path pattern. */
  callsTo(method: string, path: RegExp | string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method && (typeof path === 'string' ? call.path === path : path.test(call.path)));
  }

  protected abstract route(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse;

  /** Whether this request may carry an `application/x-www-form-urlencoded` body (an OAuth token request); JSON only otherwise. */
  protected acceptsForm(_request: SimulatorRequest): boolean {
    return false;
  }

  /** The platform's answer to a body that is neither JSON nor an accepted form. */
  protected unsupportedMediaType(_request: SimulatorRequest): SimulatorResponse {
    return { status: 415, body: { message: 'Content-Type must be application/json' } };
  }

  /** `/_simulator/...` routes (drive the simulator over HTTP in the one-machine mode). */
  protected adminRoute(_request: SimulatorRequest): Promise<SimulatorResponse | undefined> | SimulatorResponse | undefined {
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.down) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://simulator');
    const raw = Buffer.concat(chunks);
    const request: SimulatorRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: undefined };
    const bodyType = mediaTypeOf(req.headers['content-type']);
    // A platform reads a body by its declared type: a non-empty body of another type is refused, never guessed.
    if (raw.length > 0 && !(isJsonType(bodyType) || (bodyType === FORM_TYPE && this.acceptsForm(request)))) {
      const refused = this.unsupportedMediaType(request);
      if (!request.path.startsWith(`${ADMIN_PREFIX}/`)) this.calls.push({ ...request, at: Date.now(), status: refused.status, answer: refused.body });
      this.reply(res, refused);
      return;
    }
    request.body = parseBody(raw, bodyType);
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    if (this.down) {
      req.socket.destroy();
      return;
    }

    let response: SimulatorResponse;
    if (request.path.startsWith(`${ADMIN_PREFIX}/`)) {
      response = (request.method === 'GET' && request.path === `${ADMIN_PREFIX}/calls` ? this.callLog(request) : await this.adminRoute(request)) ?? { status: 404, body: { message: 'no such simulator route' } };
      this.reply(res, response);
      return;
    }
    const fault = this.faults.find((entry) => entry.left > 0 && (entry.match?.(request) ?? true));
    if (fault) {
      fault.left -= 1;
      response = { status: fault.status, body: fault.body ?? { message: 'injected failure' }, headers: fault.headers };
    } else {
      try {
        response = await this.route(request);
      } catch (error) {
        response = { status: 500, body: { message: `simulator error: ${(error as Error).message}` } };
      }
    }
    this.calls.push({ ...request, at: Date.now(), status: response.status, answer: response.body });
    this.reply(res, response);
  }

  /**
   * `GET /_simulator/calls[?method=PATCH&path=/courier-order/status]`: the platform API calls this
   * simulator answered, oldest first (the last 500; headers left out and secret body fields masked:
   * they hold tokens, passwords and keys).
   */
  private callLog(request: SimulatorRequest): SimulatorResponse {
    const method = request.query.get('method')?.toUpperCase();
    const path = request.query.get('path');
    const calls = this.calls.filter((call) => (!method || call.method === method) && (!path || call.path.startsWith(path))).slice(-500);
    return { status: 200, body: calls.map((call) => ({ at: new Date(call.at).toISOString(), method: call.method, path: call.path, query: Object.fromEntries(call.query), body: withoutSecrets(call.body), status: call.status, answer: withoutSecrets(call.answer) })) };
  }

  private reply(res: ServerResponse, response: SimulatorResponse): void {
    const body = response.body === undefined ? '' : JSON.stringify(response.body);
    res.writeHead(response.status, { ...(body ? { 'Content-Type': 'application/json' } : {}), ...response.headers });
    res.end(body);
  }
}

/** A body with the values of password / secret / token fields masked (login bodies and answers). */
function withoutSecrets(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, /password|secret|token/i.test(key) && typeof value === 'string' ? '****' : value]));
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[!#$&^_.+\-a-z0-9]+\+json$/.test(mediaType);
}

function parseBody(raw: Buffer, mediaType: string): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  if (mediaType === FORM_TYPE) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Path parameters of `pattern` (`/food-orders/:id/verify`) in `path`, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:([A-Za-z]+)/g, (_match, name: string) => (names.push(name), '([^/]+)'))}$`);
  const found = regex.exec(path);
  if (!found) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1])]));
}

/** A JSON object body, or an empty one. */
export function bodyOf(request: SimulatorRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
}
