import { Controller, Get, Headers, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoNestLogger, PinoLogger } from 'nestjs-pino';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from './logger';
import { LoggingModule } from './logging.module';
import { REDACT_DEPTH, REDACTED, redactSecrets, SECRET_KEYS } from './redaction';

const SECRET = 's3cr3t-value-that-must-not-appear';

function capture() {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  return { destination, raw, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('redactSecrets', () => {
  it('censors secret fields at depth 1, 2 and 3, in objects and arrays', () => {
    const logged = {
      apiKey: SECRET,
      keep: 'visible',
      account: { password: SECRET, restaurantId: 'rest_1', nested: { signingSecret: SECRET, other: 1 } },
      items: [{ token: SECRET, name: 'a' }, 'plain'],
      config: { internalApiKey: SECRET, appSecretKey: SECRET, restaurantSecretKey: SECRET },
    };
    expect(redactSecrets(logged)).toEqual({
      apiKey: REDACTED,
      keep: 'visible',
      account: { password: REDACTED, restaurantId: 'rest_1', nested: { signingSecret: REDACTED, other: 1 } },
      items: [{ token: REDACTED, name: 'a' }, 'plain'],
      config: { internalApiKey: REDACTED, appSecretKey: REDACTED, restaurantSecretKey: REDACTED },
    });
  });

  it('censors every credential header wherever a headers object is logged', () => {
    const headers = {
      authorization: `Basic ${SECRET}`,
      'x-api-key': SECRET,
      'x-api-secret': SECRET,
      'x-internal-api-key': SECRET,
      'x-admin-token': SECRET,
      cookie: SECRET,
      'set-cookie': [SECRET],
      'content-type': 'application/json',
    };
    const censored = redactSecrets({ request: { headers }, headers });
    expect(JSON.stringify(censored)).not.toContain(SECRET);
    expect(censored.request.headers['content-type']).toBe('application/json');
    expect(censored.headers.authorization).toBe(REDACTED);
    expect(censored.request.headers['x-api-key']).toBe(REDACTED);
  });

  it('never changes the logged object and returns it as is when it holds no secret', () => {
    const inner = { password: SECRET };
    const logged = { user: inner, list: [inner] };
    const censored = redactSecrets(logged);
    expect(inner.password).toBe(SECRET);
    expect(logged.user).toBe(inner);
    expect(censored.user).not.toBe(inner);
    const clean = { a: { b: { c: 1 } }, list: [1, 2] };
    expect(redactSecrets(clean)).toBe(clean);
  });

  it('keeps an Error an Error (message, stack, class) while censoring its properties', () => {
    class UpstreamError extends Error {}
    const error = Object.assign(new UpstreamError('upstream refused'), { apiSecret: SECRET, request: { authorization: SECRET } });
    const censored = redactSecrets({ err: error }).err;
    expect(censored).toBeInstanceOf(UpstreamError);
    expect(censored.message).toBe('upstream refused');
    expect(censored.stack).toBe(error.stack);
    expect(censored.apiSecret).toBe(REDACTED);
    expect(censored.request.authorization).toBe(REDACTED);
    expect(error.apiSecret).toBe(SECRET);
  });

  it(`searches ${REDACT_DEPTH} levels, leaves out the skipped top-level keys, and leaves byte arrays alone`, () => {
    expect(REDACT_DEPTH).toBe(3);
    const deep = { a: { b: { c: { token: 'depth 4' } } } };
    expect(redactSecrets(deep)).toBe(deep);
    const skipped = { req: { headers: { authorization: 'serialized away' } }, password: SECRET };
    expect(redactSecrets(skipped, new Set(['req']))).toEqual({ req: skipped.req, password: REDACTED });
    const bytes = Buffer.from('abc');
    expect(redactSecrets({ bytes }).bytes).toBe(bytes);
    for (const key of ['password', 'apiKey', 'authorization', 'x-api-key', 'cookie']) expect(SECRET_KEYS.has(key)).toBe(true);
  });
});

describe('createLogger redaction', () => {
  it('writes no secret at depth 1-3, in child bindings or in headers, and keeps the rest', () => {
    const { destination, raw, lines } = capture();
    const logger = createLogger({ service: 'test', destination });
    logger.info({ apiKey: SECRET, integration: { accessToken: SECRET, id: 'i-1' }, call: { request: { password: SECRET } } }, 'depths');
    logger.child({ secretKey: SECRET, component: 'probe' }).child({ nested: { token: SECRET } }).warn({ headers: { authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET } }, 'child');
    logger.error(Object.assign(new Error('boom'), { token: SECRET }), 'error');
    logger.info({ req: { id: 'r-1', method: 'GET', url: '/x', headers: { authorization: SECRET } }, res: { statusCode: 200, headers: { 'set-cookie': SECRET } } }, 'request');

    expect(raw.join('\n')).not.toContain(SECRET);
    const [depths, child, error, http] = lines();
    expect(depths).toMatchObject({ apiKey: REDACTED, integration: { accessToken: REDACTED, id: 'i-1' }, call: { request: { password: REDACTED } } });
    expect(child).toMatchObject({ secretKey: REDACTED, component: 'probe', nested: { token: REDACTED }, headers: { authorization: REDACTED, 'x-api-key': REDACTED } });
    expect(error).toMatchObject({ msg: 'error', err: { type: 'Error', message: 'boom', token: REDACTED } });
    expect((error.err as { stack: string }).stack).toContain('boom');
    // Requests and responses are reduced to a few fields whatever the logger.
    expect(http).toMatchObject({ req: { id: 'r-1', method: 'GET', url: '/x' }, res: { statusCode: 200 } });
    expect(http.req).not.toHaveProperty('headers');
  });
});

describe('LoggingModule request logging', () => {
  it('logs requests with credentials (X-API-Key, Basic, cookies) and handler lines without any secret', async () => {
    const { destination, raw, lines } = capture();

    @Controller()
    class ProbeController {
      constructor(private readonly logger: PinoLogger) {}

      @Get('probe')
      probe(@Headers() headers: Record<string, string>): { ok: true } {
        this.logger.info({ headers, caller: { credentials: { apiSecret: SECRET } } }, 'handler line');
        return { ok: true };
      }
    }
    @Module({ imports: [LoggingModule.forRoot({ service: 'probe', destination, level: 'info', pretty: false })], controllers: [ProbeController] })
    class ProbeModule {}

    const app = await NestFactory.create(ProbeModule, { bufferLogs: true });
    app.useLogger(app.get(PinoNestLogger));
    await app.init();
    try {
      await request(app.getHttpServer())
        .get('/probe?x=1')
        .set('X-API-Key', `cik_${SECRET}`)
        .set('Authorization', `Basic ${Buffer.from(`rest_1:${SECRET}`).toString('base64')}`)
        .set('Cookie', `session=${SECRET}`)
        .set('X-Request-Id', 'req-probe-1')
        .expect(200);
    } finally {
      await app.close();
    }
    const text = raw.join('\n');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(`rest_1:${SECRET}`).toString('base64'));
    const handler = lines().find((line) => line.msg === 'handler line');
    expect(handler).toMatchObject({ correlationId: 'req-probe-1', headers: { 'x-api-key': REDACTED, authorization: REDACTED, cookie: REDACTED }, caller: { credentials: { apiSecret: REDACTED } } });
    const completed = lines().find((line) => line.msg === 'request completed');
    expect(completed).toMatchObject({ correlationId: 'req-probe-1', req: { id: 'req-probe-1', method: 'GET', url: '/probe?x=1' }, res: { statusCode: 200 } });
  });
});
