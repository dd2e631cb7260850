/**
 * tools/openapi-responses.mjs, the CI check of every answer the integration tests received against
 * the published document of the app that gave it, and the apps' side of it (libs/http response-log).
 */
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import express from 'express';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { responseLogger, LoggedResponse } from '@courier/http';

// tools/openapi-responses.mjs is an ES module run by node; it is called through node here.
const MODULE = path.join(__dirname, 'openapi-responses.mjs');
function run<T>(body: string): T {
  const script = `import(${JSON.stringify(MODULE)}).then((m) => { const result = (${body})(m); process.stdout.write(JSON.stringify(result ?? null)); })`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: path.resolve(__dirname, '..') })) as T;
}
const checkAll = (entries: LoggedResponse[]) =>
  run<Array<{ ok: boolean; problem?: string } | null>>(`(m) => { const check = m.createChecker(m.loadDocuments()); return ${JSON.stringify(entries)}.map((e) => check(e) ?? null); }`);

const dispatcher = 'Status dispatcher ({pos_url}/internal, {pos_url}/platforms)';
const entry = (overrides: Partial<LoggedResponse>): LoggedResponse => ({
  document: dispatcher,
  method: 'GET',
  route: '/internal/status-updates/:statusUpdateId',
  status: 404,
  contentType: 'application/problem+json; charset=utf-8',
  body: JSON.stringify({ type: 'https://x/y', title: 'Not Found', status: 404, detail: 'No such update.', code: 'STATUS_UPDATE_NOT_FOUND', requestId: 'r-1' }),
  truncated: false,
  ...overrides,
});

describe('openapi-responses check', () => {
  it('turns Express route patterns into the document\'s path templates', () => {
    expect(run<string>(`(m) => m.templateOf('/api/v1/my/integrations/:id/check')`)).toBe('/api/v1/my/integrations/{id}/check');
  });

  it('passes what the document allows and fails what it does not, naming the problem', () => {
    const [allowed, status, body, contentType, noRoute, otherApp] = checkAll([
      entry({}),
      entry({ status: 418 }),
      entry({ body: JSON.stringify({ status: 404 }) }),
      entry({ contentType: 'text/html' }),
      entry({ route: null }),
      entry({ document: 'Some other app' }),
    ]);
    expect(allowed).toEqual({ ok: true });
    expect(status).toMatchObject({ ok: false, problem: expect.stringContaining('status 418 is not documented') });
    expect(body).toMatchObject({ ok: false, problem: expect.stringContaining('must have required property') });
    expect(contentType).toMatchObject({ ok: false, problem: expect.stringContaining('content type text/html') });
    // What no published operation covers is left out: no route matched, an app without a document.
    expect(noRoute).toBeNull();
    expect(otherApp).toBeNull();
  });
});

@Controller('things')
class ThingsController {
  @Get(':id')
  one() {
    return { id: 'a' };
  }

  @Post()
  @HttpCode(202)
  create() {
    return 'accepted';
  }
}

describe('responseLogger', () => {
  it('is off unless OPENAPI_RESPONSE_LOG_DIR is set', () => {
    expect(responseLogger('Things', {})).toBeUndefined();
  });

  it('logs each answer with its route pattern, status, content type and body', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'response-log-'));
    try {
      const moduleRef = await Test.createTestingModule({ controllers: [ThingsController] }).compile();
      const app = moduleRef.createNestApplication(undefined as never, { logger: false });
      app.use(responseLogger('Things', { OPENAPI_RESPONSE_LOG_DIR: dir }) as express.RequestHandler);
      await app.init();
      await request(app.getHttpServer()).get('/things/42').expect(200);
      await request(app.getHttpServer()).get('/nowhere').expect(404);
      await app.close();
      const logged = readFileSync(path.join(dir, `responses-${process.pid}.ndjson`), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as LoggedResponse);
      expect(logged[0]).toMatchObject({ document: 'Things', method: 'GET', route: '/things/:id', status: 200, body: '{"id":"a"}', truncated: false });
      expect(logged[0].contentType).toMatch(/^application\/json/);
      expect(logged[1]).toMatchObject({ route: null, status: 404 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
