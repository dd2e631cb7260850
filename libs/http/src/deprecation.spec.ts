import { Controller, Get, INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { Deprecated, deprecationHeaders } from './deprecation';

const notice = {
  since: new Date('2026-12-01T00:00:00Z'),
  sunset: new Date('2027-06-01T00:00:00Z'),
  link: 'https://example.org/docs/api#versions',
};

@Controller('old')
class OldController {
  @Get()
  @Deprecated(notice)
  read() {
    return { ok: true };
  }

  @Get('current')
  current() {
    return { ok: true };
  }
}

describe('Deprecated', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [OldController] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(() => app.close());

  it('answers a deprecated operation with Deprecation, Sunset and Link', async () => {
    const answer = await request(app.getHttpServer()).get('/old').expect(200);
    expect(answer.headers.deprecation).toBe('@1796083200');
    expect(answer.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(answer.headers.link).toBe('<https://example.org/docs/api#versions>; rel="deprecation"; type="text/html"');
  });

  it('leaves other operations alone', async () => {
    const answer = await request(app.getHttpServer()).get('/old/current').expect(200);
    expect(answer.headers.deprecation).toBeUndefined();
    expect(answer.headers.sunset).toBeUndefined();
  });

  it('marks the operation deprecated in the OpenAPI document', () => {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(document.paths['/old'].get?.deprecated).toBe(true);
    expect(document.paths['/old/current'].get?.deprecated).toBeUndefined();
  });

  it('refuses a sunset before the deprecation', () => {
    expect(() => deprecationHeaders({ ...notice, sunset: notice.since })).toThrow();
  });
});
