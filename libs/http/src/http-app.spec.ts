import { Body, CanActivate, Controller, ExecutionContext, Get, INestApplication, Logger, Module, Param, Post, Query, UseGuards } from '@nestjs/common';
import { IsString } from 'class-validator';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { APP_CONFIG } from '@courier/config';
import { LoggingModule } from '@courier/logging';
import { slowDripRequest } from '@courier/testing';
import { createHttpApp, HttpAppOptions } from './http-app';;
import { MAX_FIELD_ERRORS } from './problem.filter';
import { ProblemException } from './problem.exception';

describe('createHttpApp logging', () => {
  it('writes the lines of `new Logger(...)` to the app logger (the start-up buffer is flushed)', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        callback();
      },
    });
    @Module({ imports: [LoggingModule.forRoot({ service: 'probe', destination, level: 'info', pretty: false })] })
    class ProbeModule {}
    const app = await createHttpApp(ProbeModule, { title: 'probe' });
    try {
      new Logger('Probe').warn({ deliveryId: 'd-1' }, 'written at once');
      expect(lines.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: 40, context: 'Probe', deliveryId: 'd-1', msg: 'written at once' }));
      expect((Logger as unknown as { isBufferAttached: boolean }).isBufferAttached).toBe(false);
    } finally {
      await app.close();
    }
  });
});

/** A small app on createHttpApp: one validated body, one id route, the HTTP settings from APP_CONFIG. */
class ThingDto {
  @IsString()
  name: string;
}

class KeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-key'] !== 'k') throw new ProblemException(401, 'AUTHENTICATION_FAILED', 'No key.');
    return true;
  }
}

@Controller('things')
class ThingsController {
  @Post('guarded')
  @UseGuards(KeyGuard)
  guarded(@Body() thing: ThingDto) {
    return thing;
  }

  @Post()
  create(@Body() thing: ThingDto) {
    return thing;
  }

  @Get(':id')
  read(@Param('id') id: string, @Query('q') q?: string) {
    return { id, q };
  }
}

async function startProbe(settings: Record<string, unknown> = {}, options: Partial<HttpAppOptions> = {}): Promise<{ app: INestApplication; port: number }> {
  const destination = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  @Module({
    imports: [LoggingModule.forRoot({ service: 'probe', destination, level: 'silent', pretty: false })],
    controllers: [ThingsController],
    providers: [{ provide: APP_CONFIG, useValue: settings }],
  })
  class ProbeModule {}
  const app = await createHttpApp(ProbeModule, { title: 'probe', ...options });
  await app.listen(0, '127.0.0.1');
  return { app, port: (app.getHttpServer().address() as AddressInfo).port };
}

describe('createHttpApp input handling and headers', () => {
  let probe: { app: INestApplication; port: number };
  beforeAll(async () => {
    probe = await startProbe({ HTTP_REQUEST_TIMEOUT_MS: 400, HTTP_HEADERS_TIMEOUT_MS: 200 });
  });
  afterAll(() => probe?.app.close());

  it('cuts a request whose body drips in slower than HTTP_REQUEST_TIMEOUT_MS (408, connection closed)', async () => {
    // One byte every 50 ms: it would take 50 s to finish; the server ends it long before.
    const received = await slowDripRequest(probe.port, 'POST /things HTTP/1.1\r\nHost: probe\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('never quotes the body in a JSON parse error, and sends nosniff on every answer', async () => {
    const http = request(probe.app.getHttpServer());
    const broken = await http.post('/things').set('Content-Type', 'application/json').send('{"password": hunter2-do-not-echo}');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 'INVALID_PAYLOAD', detail: 'The request body is not valid JSON.' });
    expect(broken.text).not.toContain('hunter2');
    expect(broken.headers['x-content-type-options']).toBe('nosniff');
    for (const response of [await http.get('/things/a'), await http.get('/nowhere'), await http.post('/things').send({}), await http.get('/docs')]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBeUndefined();
    }
  });

  it('authenticates before it reads the body: 401, not 400 or 413, for an unauthenticated caller', async () => {
    const http = request(probe.app.getHttpServer());
    const json = (call: request.Test) => call.set('Content-Type', 'application/json');
    expect((await json(http.post('/things/guarded')).send('{"secret": garbage}')).status).toBe(401);
    expect((await json(http.post('/things/guarded')).send(`{"name":"${'x'.repeat(300 * 1024)}"}`)).status).toBe(401);
    expect((await json(http.post('/things/guarded').set('x-key', 'k')).send('{"secret": garbage}')).status).toBe(400);
    expect((await json(http.post('/things/guarded').set('x-key', 'k')).send(`{"name":"${'x'.repeat(300 * 1024)}"}`)).body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect((await json(http.post('/things/guarded').set('x-key', 'k')).set('Content-Encoding', 'gzip').send('{}')).status).toBe(415);
    expect((await json(http.post('/things/guarded').set('x-key', 'k')).send('"text"')).body).toMatchObject({ status: 400, code: 'INVALID_PAYLOAD' });
    expect((await json(http.post('/things/guarded').set('x-key', 'k')).send('{"name":"ok"}')).body).toEqual({ name: 'ok' });
  });

  it('415 for a non-empty body that is not JSON-typed (missing type included) where a body is taken, after the guard; a body-less handler ignores it', async () => {
    const http = request(probe.app.getHttpServer());
    for (const type of ['text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      expect((await http.post('/things').set('Content-Type', type).send('{"name":"ok"}')).body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect((await http.post('/things/guarded').set('Content-Type', 'text/plain').send('{"name":"ok"}')).status).toBe(401);
    const untyped = await slowDripRequest(probe.port, 'POST /things HTTP/1.1\r\nHost: probe\r\nConnection: close\r\nContent-Length: 13\r\n\r\n{"name":"ok"}');
    expect(untyped).toMatch(/^HTTP\/1\.1 415 /);
    for (const type of ['application/json', 'Application/JSON; charset=UTF-8', 'application/merge-patch+json', 'application/problem+json']) {
      expect((await http.post('/things').set('Content-Type', type).send('{"name":"ok"}')).status).toBe(201);
    }
    expect((await http.get('/things/a').set('Content-Type', 'text/plain').send('hello')).status).toBe(200);
  });

  it('refuses NUL and lone surrogates in params, query and body, and prototype keys in the body', async () => {
    const http = request(probe.app.getHttpServer());
    expect((await http.get('/things/%00')).body).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', errors: [{ field: 'id' }] });
    expect((await http.get('/things/a?q=%00')).body).toMatchObject({ status: 422, errors: [{ field: 'q' }] });
    expect((await http.post('/things').set('Content-Type', 'application/json').send('{"name":"\\ud800"}')).body).toMatchObject({ status: 422, errors: [{ field: 'name' }] });
    expect((await http.post('/things').set('Content-Type', 'application/json').send('{"name":"x","__proto__":{"admin":true}}')).body).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', errors: [{ field: '__proto__' }] });
    expect((await http.post('/things').send({ name: 'fine' })).status).toBe(201);
  });

  it('caps a validation error list, and refuses 20,000 unknown fields without building 20,000 errors', async () => {
    const http = request(probe.app.getHttpServer());
    const body = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 1]));
    const response = await http.post('/things').send(body);
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(response.body.errors[0]).toEqual({ field: 'k0', message: 'is not allowed' });
    expect(response.body.errorsOmitted).toBe(20_000 - MAX_FIELD_ERRORS);
    expect(response.text.length).toBeLessThan(4096);
  });
});

describe('createHttpApp options', () => {
  it('serves /docs unless OPENAPI_DOCS_ENABLED is false; no-store on every answer when asked', async () => {
    const hidden = await startProbe({ OPENAPI_DOCS_ENABLED: false }, { noStore: true });
    try {
      const http = request(hidden.app.getHttpServer());
      expect((await http.get('/docs')).status).toBe(404);
      expect((await http.get('/docs-json')).status).toBe(404);
      const answer = await http.get('/things/a');
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
    } finally {
      await hidden.app.close();
    }
    const shown = await startProbe({});
    try {
      expect((await request(shown.app.getHttpServer()).get('/docs-json')).status).toBe(200);
    } finally {
      await shown.app.close();
    }
  });
});
