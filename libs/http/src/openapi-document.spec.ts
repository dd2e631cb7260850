import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AUTH_FAILURE_THROTTLED, generateOpenApiDocument, INTAKE_SERVER, INTERNAL_ERROR_PROBLEM, mergeOpenApiDocuments, OpenApiDescription, servedDocument } from './openapi-document';
import { ApiProblem } from './problem.dto';

const connections: string[] = [];

/** Stands for a database or broker connection: opening it is recorded. */
@Injectable()
class Connection {
  constructor() {
    connections.push('opened');
  }
}

class ThingDto {
  @ApiProperty({ enum: ['RED', 'BLUE'], nullable: true })
  colour!: 'RED' | 'BLUE' | null;

  @ApiProperty({ enum: ['S', 'M'] })
  size!: 'S' | 'M';
}

class BoxDto {
  @ApiProperty({ type: ThingDto, nullable: true })
  thing!: ThingDto | null;
}

@ApiTags('things')
@ApiBearerAuth('bearerJwt')
@Controller('things')
class ThingsController {
  constructor(readonly connection: Connection) {}

  @Get()
  @ApiOperation({ summary: 'List things.' })
  @ApiOkResponse({ schema: { $ref: '#/components/schemas/ThingPage' } })
  list() {
    return [];
  }

  @Get('box')
  @ApiOkResponse({ type: BoxDto })
  box() {
    return { thing: null };
  }

  @Get('one')
  @ApiOkResponse({ type: ThingDto })
  @ApiProblem(500, 'Its own words.')
  one() {
    return { colour: null, size: 'S' };
  }
}

@Module({
  controllers: [ThingsController],
  providers: [
    Connection,
    {
      provide: 'DATABASE',
      useFactory: () => {
        connections.push('factory');
        throw new Error('no database in preview');
      },
    },
  ],
})
class ThingsModule {}

const DESCRIPTION: OpenApiDescription = {
  title: 'Things',
  server: INTAKE_SERVER,
  bearerJwt: { description: 'A signed JWT.' },
  tags: [{ name: 'things', description: 'The things.' }],
  schemas: { ThingPage: { type: 'object', properties: { data: { type: 'array', items: { type: 'string' } } } } },
};

describe('generateOpenApiDocument', () => {
  beforeEach(() => (connections.length = 0));

  it('describes the controllers without creating a provider (no connection, no config read)', async () => {
    const document = await generateOpenApiDocument(ThingsModule, DESCRIPTION);
    expect(connections).toEqual([]);
    expect(Object.keys(document.paths)).toEqual(['/things', '/things/box', '/things/one']);
    expect(document.paths['/things'].get?.security).toEqual([{ bearerJwt: [] }]);
  });

  it('gives the version and licence of package.json, the server with its default, the tags and the named schemas', async () => {
    const suite = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { version: string; license: string };
    const document = await generateOpenApiDocument(ThingsModule, DESCRIPTION);
    expect(document.info).toMatchObject({ title: 'Things', description: '', version: suite.version, license: { name: suite.license } });
    expect(document.servers).toEqual([{ url: '{base_url}', description: INTAKE_SERVER!.description, variables: { base_url: { default: 'http://localhost:3000', description: INTAKE_SERVER!.description } } }]);
    expect(document.tags).toEqual([{ name: 'things', description: 'The things.' }]);
    expect(document.components?.securitySchemes).toEqual({ bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A signed JWT.' } });
    expect(document.components?.schemas?.ThingPage).toEqual(DESCRIPTION.schemas!.ThingPage);
  });

  it('reads the named schemas when it builds, so an app may fill them in place as it starts', async () => {
    const schemas: Record<string, Record<string, unknown>> = {};
    const description = { ...DESCRIPTION, schemas };
    schemas.ThingPage = { type: 'array' };
    expect((await generateOpenApiDocument(ThingsModule, description)).components?.schemas?.ThingPage).toEqual({ type: 'array' });
  });

  it('lets every nullable enum take null, as strict validators read OpenAPI 3.0', async () => {
    const document = await generateOpenApiDocument(ThingsModule, DESCRIPTION);
    const thing = document.components?.schemas?.ThingDto as { properties: Record<string, { enum: unknown[] }> };
    expect(thing.properties.colour.enum).toEqual(['RED', 'BLUE', null]);
    expect(thing.properties.size.enum).toEqual(['S', 'M']);
    const box = document.components?.schemas?.BoxDto as { properties: Record<string, Record<string, unknown>> };
    expect(box.properties.thing).toMatchObject({ nullable: true, anyOf: [{ $ref: '#/components/schemas/ThingDto' }, { type: 'object', nullable: true, enum: [null] }] });
    expect(box.properties.thing.allOf).toBeUndefined();
  });

  it('writes the outbound webhooks as x-webhooks (OpenAPI 3.0), nullable enums there taking null too', async () => {
    const webhooks = { 'thing.painted': { post: { requestBody: { content: { 'application/json': { schema: { type: 'string', nullable: true, enum: ['RED'] } } } }, responses: { 200: { description: 'ok' } } } } };
    const document = (await generateOpenApiDocument(ThingsModule, { ...DESCRIPTION, webhooks })) as unknown as { 'x-webhooks': typeof webhooks; openapi: string };
    expect(document.openapi).toMatch(/^3\.0/);
    expect(Object.keys(document['x-webhooks'])).toEqual(['thing.painted']);
    expect(document['x-webhooks']['thing.painted'].post.requestBody.content['application/json'].schema.enum).toEqual(['RED', null]);
  });

  it('adds the answers every operation can give where an operation does not document them', async () => {
    const document = await generateOpenApiDocument(ThingsModule, { ...DESCRIPTION, everyOperationProblems: [AUTH_FAILURE_THROTTLED, INTERNAL_ERROR_PROBLEM] });
    const list = document.paths['/things'].get!.responses as Record<string, { description: string; headers?: object; content: object }>;
    expect(list['429']).toEqual({
      description: AUTH_FAILURE_THROTTLED.description,
      headers: AUTH_FAILURE_THROTTLED.headers,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDto' } } },
    });
    expect(list['500'].description).toBe(INTERNAL_ERROR_PROBLEM.description);
    expect((document.paths['/things/one'].get!.responses as Record<string, { description: string }>)['500'].description).toBe('Its own words.');
  });

  it('adds to operations of a restricted path only the statuses their caller accepts', async () => {
    const document = await generateOpenApiDocument(ThingsModule, { ...DESCRIPTION, everyOperationProblems: [AUTH_FAILURE_THROTTLED, INTERNAL_ERROR_PROBLEM], restrictedAnswers: [{ pathPrefix: '/things', statuses: [200, 500] }] });
    const list = document.paths['/things'].get!.responses as Record<string, unknown>;
    expect(list['429']).toBeUndefined();
    expect(list['500']).toBeDefined();
  });
});

describe('mergeOpenApiDocuments', () => {
  const part = (title: string, path: string, schema: Record<string, unknown>) =>
    ({
      openapi: '3.0.0',
      info: { title, version: '1' },
      servers: [{ url: '{pos_url}' }],
      paths: { [path]: { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } } },
      tags: [{ name: title }],
      components: { schemas: { Thing: schema, ProblemDto: { type: 'object' } }, securitySchemes: { [title]: { type: 'apiKey', in: 'header', name: title } } },
    }) as never;

  it('puts the paths, tags and security schemes of several apps in one document, keeping different schemas of one name apart', () => {
    const merged = mergeOpenApiDocuments({ title: 'All', description: 'Everything.' }, [
      { prefix: 'one', document: part('One', '/one', { type: 'string' }) },
      { prefix: 'two', document: part('Two', '/two', { type: 'number' }) },
    ]);
    expect(merged.info.title).toBe('All');
    expect(Object.keys(merged.paths)).toEqual(['/one', '/two']);
    expect(merged.tags?.map((tag) => tag.name)).toEqual(['One', 'Two']);
    expect(Object.keys(merged.components?.securitySchemes ?? {})).toEqual(['One', 'Two']);
    expect(merged.components?.schemas).toEqual({ Thing: { type: 'string' }, ProblemDto: { type: 'object' }, two_Thing: { type: 'number' } });
    const twoSchema = (merged.paths['/two'].get?.responses[200] as { content: Record<string, { schema: unknown }> }).content['application/json'].schema;
    expect(twoSchema).toEqual({ $ref: '#/components/schemas/two_Thing' });
  });

  it('keeps the outbound webhooks (x-webhooks) of every app, their references renamed with their schemas', () => {
    const hook = { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } }, responses: { 200: { description: 'ok' } } } };
    const two = { ...(part('Two', '/two', { type: 'number' }) as object), 'x-webhooks': { 'thing.changed': hook } } as never;
    const merged = mergeOpenApiDocuments({ title: 'All', description: '' }, [
      { prefix: 'one', document: part('One', '/one', { type: 'string' }) },
      { prefix: 'two', document: two },
    ]) as unknown as { 'x-webhooks': Record<string, typeof hook> };
    expect(Object.keys(merged['x-webhooks'])).toEqual(['thing.changed']);
    expect(merged['x-webhooks']['thing.changed'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/two_Thing' });
  });

  it('refuses two apps serving one path', () => {
    expect(() => mergeOpenApiDocuments({ title: 'All', description: '' }, [{ prefix: 'a', document: part('A', '/x', {}) }, { prefix: 'b', document: part('B', '/x', {}) }])).toThrow('two apps serve /x');
  });

  it('serves a document with the page\'s own host first', () => {
    expect(servedDocument(part('One', '/one', {})).servers).toEqual([{ url: '/', description: 'The host serving this page.' }, { url: '{pos_url}' }]);
  });
});
