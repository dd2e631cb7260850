import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ProblemDto, ProblemHeaderDocs, RATE_LIMIT_HEADER_DOCS } from './problem.dto';

/** A JSON Schema object as OpenAPI 3.0 embeds it. */
/** The schema of a field holding any JSON value, null included (a platform's answer body): `anyOf` these. */
export const ANY_JSON_VALUE = [{ type: 'object' }, { type: 'array', items: {} }, { type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object', nullable: true, enum: [null] }];

export type OpenApiSchema = Record<string, unknown>;

/** A document with the outbound webhooks of its app (OpenApiDescription.webhooks). */
type WithWebhooks = OpenAPIObject & { 'x-webhooks'?: Record<string, unknown> };

/** What an app's OpenAPI document says besides what the controllers' decorators say. */
export interface OpenApiDescription {
  title: string;
  description?: string;
  /** Where the API is reached: `{base_url}` or `{pos_url}` of interface.md, with the one-machine default. */
  server?: { variable: string; default: string; description: string };
  /** API-key security schemes (headers), each named after its header. */
  apiKeyHeaders?: string[];
  basicAuth?: boolean;
  /** An HTTP bearer scheme with a JWT (a platform's callbacks), named `bearerJwt`. */
  bearerJwt?: { description: string };
  /** The tags the controllers use, with what each groups. */
  tags?: Array<{ name: string; description: string }>;
  /**
   * Named schemas the decorators refer to by `$ref` (bodies built at run time, not DTO classes).
   * Read when the document is built, so an app may fill it in place when it starts.
   */
  schemas?: Record<string, OpenApiSchema>;
  /**
   * Error answers every operation can give whatever its own decorators say (a guard on every route,
   * the exception filter): added to each operation that does not document that status itself.
   */
  everyOperationProblems?: Array<{ status: number; description: string; headers?: ProblemHeaderDocs }>;
  /**
   * Operations whose path starts with `pathPrefix` answer only `statuses` (a caller that accepts no
   * other, such as a platform's middleware): everyOperationProblems adds nothing else to them.
   */
  restrictedAnswers?: Array<{ pathPrefix: string; statuses: readonly number[] }>;
  /**
   * The requests the app sends to its callers (outbound webhooks), by name, as path items: written
   * as `x-webhooks`, OpenAPI 3.0's extension for 3.1's `webhooks` (Redoc and Redocly read it).
   */
  webhooks?: Record<string, Record<string, unknown>>;
}

/** The failed-authentication throttle's 429 (libs/rate-limit AuthFailures, through which every credential guard of the apps that install it refuses). */
export const AUTH_FAILURE_THROTTLED = {
  status: 429,
  description:
    'RATE_LIMIT_EXCEEDED: these credentials are wrong and this client address (AUTH_FAILURE_LIMIT_PER_MINUTE, policy "failures") or this key id (AUTH_FAILURE_KEY_LIMIT_PER_MINUTE, policy "key-failures") failed too often this minute; answered instead of the 401. Correct credentials are never refused. Retry after Retry-After seconds.',
  headers: RATE_LIMIT_HEADER_DOCS,
};

/** What the shared request reader (RequestInputInterceptor, readJsonBody) refuses on any operation, before its own checks. */
export const REQUEST_INPUT_PROBLEMS = [
  { status: 400, description: 'INVALID_PAYLOAD: the body is not valid JSON, not a JSON object or array, or nested more than 32 levels (refused before it is parsed).' },
  { status: 413, description: 'PAYLOAD_TOO_LARGE: the body is larger than the limit (256 KiB).' },
  { status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: an operation taking a body got a non-empty one whose Content-Type is not application/json or application/<name>+json (or is missing), not UTF-8, or compressed (Content-Encoding).' },
  {
    status: 422,
    description: 'VALIDATION_ERROR: a path parameter, query value or body string PostgreSQL cannot store (NUL, a lone surrogate), or a prototype key (`__proto__`) in the body; listed in `errors`.',
  },
];

/** Any operation's answer to an unexpected failure (ProblemJsonFilter). */
export const INTERNAL_ERROR_PROBLEM = { status: 500, description: 'INTERNAL_ERROR: unexpected failure; quote the requestId.' };

interface SuitePackage {
  version: string;
  license: string;
}

let suitePackage: SuitePackage | undefined;

/**
 * The suite's package.json (version and licence of the documents): the nearest one above this
 * file, which is the repository root from the sources, dist/ and the images (/app/package.json).
 */
function readSuitePackage(): SuitePackage {
  if (suitePackage) return suitePackage;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<SuitePackage>;
      suitePackage = { version: String(parsed.version ?? '0.0.0'), license: String(parsed.license ?? 'UNLICENSED') };
      return suitePackage;
    }
    if (path.dirname(dir) === dir) return { version: '0.0.0', license: 'UNLICENSED' };
  }
}

/** The OpenAPI document of an app's controllers, served at /docs and published in docs/openapi/. */
export function buildOpenApiDocument(app: INestApplication, description: OpenApiDescription): OpenAPIObject {
  const { version, license } = readSuitePackage();
  const builder = new DocumentBuilder()
    .setTitle(description.title)
    .setDescription(description.description ?? '')
    .setVersion(version);
  if (description.server) {
    const { variable, default: url, description: text } = description.server;
    builder.addServer(`{${variable}}`, text, { [variable]: { default: url, description: text } });
  }
  for (const header of description.apiKeyHeaders ?? []) builder.addApiKey({ type: 'apiKey', in: 'header', name: header }, header);
  if (description.basicAuth) builder.addBasicAuth();
  if (description.bearerJwt) builder.addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: description.bearerJwt.description }, 'bearerJwt');
  for (const tag of description.tags ?? []) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build());
  document.info.license = license === 'Apache-2.0' ? { name: license, url: 'https://www.apache.org/licenses/LICENSE-2.0' } : { name: license };
  delete document.info.contact; // DocumentBuilder's empty default
  if (description.schemas) document.components = { ...document.components, schemas: { ...document.components?.schemas, ...description.schemas } };
  if (description.webhooks) (document as WithWebhooks)['x-webhooks'] = description.webhooks;
  addProblemsToEveryOperation(document, description.everyOperationProblems ?? [], description.restrictedAnswers ?? []);
  allowNullInNullableEnums(document);
  return document;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function addProblemsToEveryOperation(
  document: OpenAPIObject,
  problems: NonNullable<OpenApiDescription['everyOperationProblems']>,
  restricted: NonNullable<OpenApiDescription['restrictedAnswers']>,
): void {
  if (problems.length === 0) return;
  // ProblemDto is registered by any @ApiProblem(s) of the app's controllers.
  if (!document.components?.schemas?.[ProblemDto.name]) throw new Error('everyOperationProblems refers to ProblemDto: document at least one answer with @ApiProblem');
  for (const [path, item] of Object.entries(document.paths)) {
    const allowed = restricted.find((rule) => path.startsWith(rule.pathPrefix))?.statuses;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const { status, description, headers } of problems) {
        if (operation.responses[status] || (allowed && !allowed.includes(status))) continue;
        operation.responses[status] = {
          description,
          ...(headers ? { headers } : {}),
          content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${ProblemDto.name}` } } },
        };
      }
    }
  }
}

/**
 * OpenAPI 3.0.3 says `nullable: true` adds null to `type` only: strict validators still refuse null
 * where an `enum` lacks it, or where the schema is a `$ref` in `allOf` (Nest's way to make a DTO
 * property nullable). So every nullable enum gets `null`, and a nullable `allOf: [$ref]` becomes
 * `anyOf: [$ref, null]`, wherever they stand.
 */
export function allowNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInNullableEnums(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (schema.nullable === true && Array.isArray(schema.allOf) && schema.allOf.length === 1) {
    schema.anyOf = [schema.allOf[0], { type: 'object', nullable: true, enum: [null] }];
    delete schema.allOf;
  }
  for (const value of Object.values(schema)) allowNullInNullableEnums(value);
}

/**
 * Builds an app's document without running it: Nest's preview mode registers the modules and
 * controllers but instantiates no provider, so nothing connects to a database or a broker and no
 * configuration is read. The published documents (npm run openapi) are made this way.
 */
export async function generateOpenApiDocument(module: Type<unknown>, description: OpenApiDescription): Promise<OpenAPIObject> {
  const app = await NestFactory.create(module, { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app, description);
  } finally {
    await app.close();
  }
}

/** {base_url} of interface.md: the intake host. */
export const INTAKE_SERVER: OpenApiDescription['server'] = {
  variable: 'base_url',
  default: 'http://localhost:3000',
  description: 'The intake base URL ({base_url}) you were given; http://localhost:3000 in the one-machine mode (npm start).',
};

/** {pos_url} of interface.md: the management, internal and platform-callback host. */
export const POS_SERVER: OpenApiDescription['server'] = {
  variable: 'pos_url',
  default: 'http://localhost:3001',
  description: 'The management base URL ({pos_url}) you were given; http://localhost:3001 in the one-machine mode (npm start).',
};

/**
 * One document for several apps served on one host ({pos_url} in the one-machine mode: management,
 * internal, platform callbacks, deliveries): their paths, tags and security schemes together. A
 * schema name two apps use for different schemas is kept apart by prefixing the later app's
 * (`<prefix>_<name>`) and rewriting that app's references to it.
 */
export function mergeOpenApiDocuments(info: { title: string; description: string }, parts: Array<{ prefix: string; document: OpenAPIObject }>): OpenAPIObject {
  const [first] = parts;
  if (!first) throw new Error('mergeOpenApiDocuments needs at least one document');
  const merged: OpenAPIObject = {
    openapi: first.document.openapi,
    info: { ...first.document.info, title: info.title, description: info.description },
    servers: first.document.servers,
    paths: {},
    tags: [],
    components: { schemas: {}, securitySchemes: {} },
  };
  const schemas = merged.components!.schemas!;
  for (const { prefix, document } of parts) {
    const renamed = new Map<string, string>();
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) renamed.set(name, `${prefix}_${name}`);
    }
    const own = renamed.size > 0 ? (rewriteRefs(document, renamed) as OpenAPIObject) : document;
    for (const [name, schema] of Object.entries(own.components?.schemas ?? {})) schemas[renamed.get(name) ?? name] = schema;
    Object.assign(merged.components!.securitySchemes!, own.components?.securitySchemes);
    for (const [path, item] of Object.entries(own.paths)) {
      if (merged.paths[path]) throw new Error(`two apps serve ${path}`);
      merged.paths[path] = item;
    }
    for (const tag of own.tags ?? []) if (!merged.tags!.some((known) => known.name === tag.name)) merged.tags!.push(tag);
    const webhooks = (own as WithWebhooks)['x-webhooks'];
    if (webhooks) (merged as WithWebhooks)['x-webhooks'] = { ...(merged as WithWebhooks)['x-webhooks'], ...webhooks };
  }
  return merged;
}

function rewriteRefs(node: unknown, renamed: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, renamed));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        return [key, renamed.has(name) ? `#/components/schemas/${renamed.get(name)}` : value];
      }
      if (key === 'schemas' && value && typeof value === 'object' && !Array.isArray(value)) {
        return [key, Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, rewriteRefs(schema, renamed)]))];
      }
      return [key, rewriteRefs(value, renamed)];
    }),
  );
}

/**
 * The document as a host serves it at /docs: "Try it out" first goes to the host the page was
 * loaded from (relative `/`), so it works from localhost and 127.0.0.1 alike without CORS; the
 * published servers follow.
 */
export function servedDocument(document: OpenAPIObject): OpenAPIObject {
  return { ...document, servers: [{ url: '/', description: 'The host serving this page.' }, ...(document.servers ?? [])] };
}

/** Serves `document` at /docs (Swagger UI) and /docs-json of `app`. */
export function serveOpenApiDocument(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, servedDocument(document), { jsonDocumentUrl: 'docs-json' });
}
