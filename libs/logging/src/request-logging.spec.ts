import { Controller, Get, HttpException, INestApplication, Logger, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppLogger, LoggingModule } from './logging.module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { withCorrelationId } from './correlation';

type Line = Record<string, unknown> & { msg?: string; req?: { id?: string; method?: string; url?: string } };

function capture() {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  return { destination, lines: () => raw.map((line) => JSON.parse(line) as Line) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('LoggingModule request lines', () => {
  const { destination, lines } = capture();
  let app: INestApplication;
  let releaseSlow: () => void = () => undefined;
  let slowEntered: () => void = () => undefined;

  @Controller()
  class ProbeController {
    private readonly logger = new Logger('Probe');

    @Get('echo/:n')
    async echo(@Param('n') n: string): Promise<{ n: string }> {
      this.logger.log(`handling ${n}`);
      await new Promise((resolve) => setTimeout(resolve, Number(n) % 7));
      this.logger.warn(`still handling ${n}`);
      return { n };
    }

    @Get('health')
    health(): { status: string } {
      return { status: 'ok' };
    }

    @Get('metrics')
    metrics(): string {
      return '';
    }

    @Get('broken')
    broken(): never {
      throw new HttpException('upstream down', 503);
    }

    @Get('slow')
    async slow(): Promise<{ done: true }> {
      slowEntered();
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      return { done: true };
    }
  }
  @Module({ imports: [LoggingModule.forRoot({ service: 'probe', destination, level: 'info', pretty: false })], controllers: [ProbeController] })
  class ProbeModule {}

  beforeAll(async () => {
    app = await NestFactory.create(ProbeModule, { bufferLogs: true });
    app.useLogger(app.get(AppLogger));
    app.flushLogs();
    await app.init();
  });
  afterAll(async () => {
    releaseSlow();
    await app.close();
  });

  const completed = (url: string) => lines().filter((line) => line.req?.url === url && typeof line.responseTime === 'number');

  it('logs one line per request with req {id, method, url}, res {statusCode}, responseTime and correlationId; handler lines carry the same id', async () => {
    await request(app.getHttpServer()).get('/echo/1?x=y').set('X-Request-Id', 'req-one').expect(200);
    await new Promise((resolve) => setImmediate(resolve));
    const [line, ...more] = completed('/echo/1?x=y');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      service: 'probe',
      msg: 'request completed',
      correlationId: 'req-one',
      req: { id: 'req-one', method: 'GET', url: '/echo/1?x=y' },
      res: { statusCode: 200 },
    });
    expect(line.responseTime).toBeGreaterThanOrEqual(0);
    expect(line).not.toHaveProperty('reqId');
    const handler = lines().filter((entry) => entry.msg === 'handling 1' || entry.msg === 'still handling 1');
    expect(handler.map((entry) => [entry.msg, entry.correlationId, entry.context])).toEqual([
      ['handling 1', 'req-one', 'Probe'],
      ['still handling 1', 'req-one', 'Probe'],
    ]);
  });

  it('gives a request without a plausible id a new UUID, the same in its request line and its handler lines', async () => {
    await request(app.getHttpServer()).get('/echo/2').set('X-Request-Id', 'not a token"}').expect(200);
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = completed('/echo/2');
    expect(line.req!.id).toMatch(UUID);
    expect(line.correlationId).toBe(line.req!.id);
    expect(lines().find((entry) => entry.msg === 'still handling 2')!.correlationId).toBe(line.req!.id);
  });

  it('keeps concurrent requests apart: every line carries its own request id', async () => {
    const numbers = Array.from({ length: 40 }, (_, index) => 100 + index);
    await Promise.all(numbers.map((n) => request(app.getHttpServer()).get(`/echo/${n}`).set('X-Correlation-Id', `corr-${n}`).expect(200)));
    await new Promise((resolve) => setImmediate(resolve));
    for (const n of numbers) {
      const requestLines = completed(`/echo/${n}`);
      expect(requestLines.map((line) => [line.req!.id, line.correlationId])).toEqual([[`corr-${n}`, `corr-${n}`]]);
      const handler = lines().filter((entry) => entry.msg === `handling ${n}` || entry.msg === `still handling ${n}`);
      expect(handler.map((entry) => entry.correlationId)).toEqual([`corr-${n}`, `corr-${n}`]);
    }
  });

  it('does not log /health and /metrics', async () => {
    await request(app.getHttpServer()).get('/health').expect(200);
    await request(app.getHttpServer()).get('/metrics').expect(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines().filter((line) => line.req?.url === '/health' || line.req?.url === '/metrics')).toEqual([]);
  });

  it('logs a 5xx as "request errored" with its status and an err', async () => {
    await request(app.getHttpServer()).get('/broken').set('X-Request-Id', 'req-broken').expect(503);
    await new Promise((resolve) => setImmediate(resolve));
    const [line, ...more] = completed('/broken');
    expect(more).toEqual([]);
    expect(line).toMatchObject({ msg: 'request errored', correlationId: 'req-broken', res: { statusCode: 503 }, err: { message: 'failed with status code 503' } });
  });

  it('logs a request whose client went away before the answer as "request aborted", once', async () => {
    const server = app.getHttpServer() as http.Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const entered = new Promise<void>((resolve) => (slowEntered = resolve));
    const client = http.get({ host: '127.0.0.1', port, path: '/slow', headers: { 'X-Request-Id': 'req-gone' } });
    client.on('error', () => undefined);
    await entered;
    client.destroy();
    for (let attempt = 0; attempt < 100 && completed('/slow').length === 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    releaseSlow();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(completed('/slow').map((line) => [line.msg, line.correlationId])).toEqual([['request aborted', 'req-gone']]);
  });
});

describe('LoggingModule with two apps in one process (local-suite)', () => {
  it("writes a request's lines with the logger of the app that handles it, inside the correlation scope opened before it (libs/http)", async () => {
    @Controller()
    class ScopedController {
      private readonly logger = new Logger('Scoped');
      @Get('scoped')
      scoped(): { ok: true } {
        this.logger.log('in handler');
        return { ok: true };
      }
    }
    const apps: INestApplication[] = [];
    const captured: Array<() => Line[]> = [];
    for (const service of ['first', 'second']) {
      const { destination, lines } = capture();
      @Module({ imports: [LoggingModule.forRoot({ service, destination, level: 'info', pretty: false })], controllers: [ScopedController] })
      class ScopedModule {}
      const app = await NestFactory.create(ScopedModule, { bufferLogs: true });
      // The last app's logger is Nest's static logger, which every `new Logger(...)` writes to.
      app.useLogger(app.get(AppLogger));
      app.flushLogs();
      app.use((req: http.IncomingMessage & { id?: string }, _res: http.ServerResponse, next: () => void) => {
        req.id = `outer-${service}`;
        withCorrelationId(`outer-${service}`, next);
      });
      await app.init();
      apps.push(app);
      captured.push(lines);
    }
    try {
      await request(apps[0].getHttpServer()).get('/scoped').set('X-Request-Id', 'ignored-inner').expect(200);
      await request(apps[1].getHttpServer()).get('/scoped').expect(200);
    } finally {
      for (const app of apps) await app.close();
    }
    for (const [index, service] of ['first', 'second'].entries()) {
      const logged = captured[index]().filter((line) => line.correlationId !== undefined);
      expect(logged.map((line) => [line.msg, line.service, line.correlationId])).toEqual([
        ['in handler', service, `outer-${service}`],
        ['request completed', service, `outer-${service}`],
      ]);
      expect(logged[1]).toMatchObject({ req: { id: `outer-${service}`, url: '/scoped' } });
    }
  });
});
