import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { withCorrelationId } from '@courier/logging';
import { PlatformNetworkError, platformRequest, platformUrl, retryAfterMs } from './platform-http';
import { classifyResponse } from './outcomes';

describe('platformRequest', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 500);
      if (req.url === '/redirect') {
        res.writeHead(302, { Location: '/json' });
        return void res.end();
      }
      if (req.url === '/big') return void res.end('x'.repeat(2 * 1024 * 1024));
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'] ?? null, correlationId: req.headers['x-correlation-id'] ?? null, body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends JSON and form bodies and parses JSON answers', async () => {
    expect((await platformRequest({ method: 'POST', url: `${base}/json`, json: { a: 1 }, timeoutMs: 1000 })).body).toEqual({ method: 'POST', type: 'application/json', correlationId: null, body: '{"a":1}' });
    expect((await platformRequest({ method: 'POST', url: `${base}/form`, form: { a: 'b c' }, timeoutMs: 1000 })).body).toEqual({ method: 'POST', type: 'application/x-www-form-urlencoded', correlationId: null, body: 'a=b+c' });
  });

  it('sends the current correlation id as X-Correlation-Id, none outside a scope', async () => {
    const inScope = await withCorrelationId('req-7f3a', () => platformRequest({ method: 'GET', url: `${base}/json`, timeoutMs: 1000 }));
    expect(inScope.body).toMatchObject({ correlationId: 'req-7f3a' });
    const outside = await platformRequest({ method: 'GET', url: `${base}/json`, timeoutMs: 1000 });
    expect(outside.body).toMatchObject({ correlationId: null });
  });

  it('times out, refuses connections as network errors, never follows redirects, bounds bodies', async () => {
    await expect(platformRequest({ method: 'GET', url: `${base}/slow`, timeoutMs: 100 })).rejects.toThrow(PlatformNetworkError);
    await expect(platformRequest({ method: 'GET', url: 'http://127.0.0.1:1/', timeoutMs: 1000 })).rejects.toThrow(PlatformNetworkError);
    expect((await platformRequest({ method: 'GET', url: `${base}/redirect`, timeoutMs: 1000 })).status).toBe(302);
    const big = await platformRequest({ method: 'GET', url: `${base}/big`, timeoutMs: 2000 });
    expect(String(big.body).length).toBeLessThan(5000);
  });

  it('sends again, once, when a kept-alive socket is reset before any answer; never on a new socket', async () => {
    // The server answers the first request of each connection and resets the connection on any
    // later one, as a server does that closed an idle keep-alive socket as the request arrived.
    const seen: string[] = [];
    const sockets = new WeakMap<object, number>();
    const server = http.createServer((req, res) => {
      const count = (sockets.get(req.socket) ?? 0) + 1;
      sockets.set(req.socket, count);
      seen.push(`${req.url}#${count}`);
      if (count > 1 || req.url === '/reset-always') {
        req.socket.destroy();
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await platformRequest({ method: 'POST', url: `${base}/first`, json: {}, timeoutMs: 5000 })).status).toBe(200);
      // Reuses the idle socket, is reset, goes out again on a new one and is answered.
      expect((await platformRequest({ method: 'POST', url: `${base}/second`, json: {}, timeoutMs: 5000 })).body).toEqual({ ok: true });
      expect(seen).toEqual(['/first#1', '/second#2', '/second#1']);
      // A reset on a new connection is an answer of the network: reported, not repeated.
      seen.length = 0;
      const agentFree = await platformRequest({ method: 'GET', url: `${base}/warm`, timeoutMs: 5000 });
      expect(agentFree.status).toBe(200);
      const failing = platformRequest({ method: 'POST', url: `${base}/reset-always`, json: {}, timeoutMs: 5000 });
      await expect(failing).rejects.toBeInstanceOf(PlatformNetworkError);
      // The first try reused the warm socket (reset), the one retry used a new socket (reset): two, no more.
      expect(seen.filter((entry) => entry.startsWith('/reset-always'))).toEqual(['/reset-always#2', '/reset-always#1']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('joins base URLs with a path prefix and reads Retry-After', () => {
    expect(platformUrl('https://api.example.com/integrator/', '/x')).toBe('https://api.example.com/integrator/x');
    expect(retryAfterMs({ 'retry-after': '20' })).toBe(20_000);
    expect(retryAfterMs({ 'retry-after': new Date(Date.now() + 5000).toUTCString() })).toBeGreaterThan(3000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
  });

  it('classifies answers: 2xx done, "already done" done, 408/429/5xx retry, other 4xx final', () => {
    const answer = (status: number) => ({ status, headers: {}, body: { code: 2 } });
    expect(classifyResponse(answer(204)).kind).toBe('done');
    expect(classifyResponse(answer(400), () => true)).toMatchObject({ kind: 'done', alreadyDone: true });
    for (const status of [408, 429, 500, 502, 503, 504]) expect(classifyResponse(answer(status)).kind).toBe('retry');
    for (const status of [400, 401, 403, 404, 409, 422]) expect(classifyResponse(answer(status)).kind).toBe('failed');
  });
});
