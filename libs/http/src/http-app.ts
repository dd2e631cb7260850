import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, findProvider, parseTrustProxy } from '@courier/config';
import { connectMessageHandlers } from '@courier/messaging';
import { AppLogger, CORRELATION_HEADER, REQUEST_ID_HEADER, sanitiseCorrelationId, withCorrelationId } from '@courier/logging';
import { buildOpenApiDocument, OpenApiDescription, serveOpenApiDocument } from './openapi-document';
import { ProblemJsonFilter } from './problem.filter';
import { RequestInputInterceptor } from './request-input';
import { strictValidationPipe } from './validation';
import { responseLogger } from './response-log';

/** The OpenAPI description (served at /docs and /docs-json, published in docs/openapi/) and the app's settings. */
export interface HttpAppOptions extends OpenApiDescription {
  /** Largest accepted JSON body, in bytes (default 256 KiB). */
  bodyLimit?: number;
  /**
   * Paths whose JSON body the shared reader leaves alone because the handler reads it itself
   * (intake, whose check order has refusals of its own for the body).
   */
  selfParsedBodyPaths?: string[];
  /**
   * `Cache-Control: no-store` on every response: for an API whose answers carry credentials
   * (integrations-api returns API secrets, signing secrets, platform keys).
   */
  noStore?: boolean;
  /** Serve the document at /docs (default: as OPENAPI_DOCS_ENABLED says); false: a composer serves a combined one (mergeOpenApiDocuments). */
  serveDocs?: boolean;
}

/** The HTTP server settings of BaseConfig; an app whose config lacks them (mock-receiver) gets these defaults. */
export interface HttpServerSettings {
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  OPENAPI_DOCS_ENABLED: boolean;
}

const DEFAULT_SERVER_SETTINGS: HttpServerSettings = { HTTP_REQUEST_TIMEOUT_MS: 30_000, HTTP_HEADERS_TIMEOUT_MS: 10_000, HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000, OPENAPI_DOCS_ENABLED: true };

function serverSettings(app: INestApplication): HttpServerSettings {
  // No APP_CONFIG in this module tree: the defaults.
  const config = findProvider<Partial<HttpServerSettings>>(app, APP_CONFIG) ?? {};
  const pick = <K extends keyof HttpServerSettings>(key: K): HttpServerSettings[K] => (config[key] ?? DEFAULT_SERVER_SETTINGS[key]) as HttpServerSettings[K];
  return {
    HTTP_REQUEST_TIMEOUT_MS: pick('HTTP_REQUEST_TIMEOUT_MS'),
    HTTP_HEADERS_TIMEOUT_MS: pick('HTTP_HEADERS_TIMEOUT_MS'),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: pick('HTTP_KEEP_ALIVE_TIMEOUT_MS'),
    OPENAPI_DOCS_ENABLED: pick('OPENAPI_DOCS_ENABLED'),
  };
}

/**
 * Cuts requests that arrive too slowly (408, connection closed) and idle keep-alive connections.
 * Node checks the request and header deadlines only every connectionsCheckingInterval (30 s by
 * default, which let slow-drip clients hold connections that long): checked here at a fraction of
 * the header deadline. Takes effect when the server starts listening.
 */
export function applyServerTimeouts(server: Server, settings: Pick<HttpServerSettings, 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>): void {
  server.requestTimeout = settings.HTTP_REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(settings.HTTP_HEADERS_TIMEOUT_MS, settings.HTTP_REQUEST_TIMEOUT_MS);
  server.keepAliveTimeout = settings.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(50, Math.min(1_000, Math.floor(server.headersTimeout / 4)));
}

/** Headers every response carries; `no-store` where answers hold credentials. */
function securityHeaders(noStore: boolean) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (noStore) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

/** Gives every request an id (the caller's X-Request-Id when plausible) and runs it in that correlation scope. */
function requestScope(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  const id =
    sanitiseCorrelationId(req.headers[REQUEST_ID_HEADER]) ?? sanitiseCorrelationId(req.headers[CORRELATION_HEADER]) ?? randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  withCorrelationId(id, () => next());
}

function configuredTrustProxy(app: INestApplication): string | undefined {
  // An app without the suite's config (a test module) has none.
  return findProvider<{ TRUST_PROXY?: string }>(app, APP_CONFIG)?.TRUST_PROXY;
}

/**
 * Creates (does not start) an HTTP app with the suite's conventions: buffered logs into pino, strict
 * validation, problem JSON for every error, body limit, OpenAPI at /docs, shutdown hooks, and the
 * app's message handlers connected.
 */
export async function createHttpApp(module: Type<unknown>, options: HttpAppOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, { bufferLogs: true, bodyParser: false, abortOnError: false });
  app.useLogger(app.get(AppLogger));
  // NestFactory.create buffers every `new Logger(...)` line until flushed, and (unlike
  // createApplicationContext) never flushes on useLogger: without this, those lines are never
  // written and the buffer grows for the life of the process.
  app.flushLogs();
  app.disable('x-powered-by');
  // The client address (request.ip, which the failed-authentication throttle counts by) believes
  // X-Forwarded-For only as far as TRUST_PROXY says: by default not at all.
  app.set('trust proxy', parseTrustProxy(configuredTrustProxy(app)) ?? false);
  app.set('etag', false);
  const settings = serverSettings(app);
  applyServerTimeouts(app.getHttpServer(), settings);
  app.use(requestScope);
  const logResponses = responseLogger(options.title);
  if (logResponses) app.use(logResponses);
  app.use(securityHeaders(options.noStore ?? false));
  // No body-parser middleware: JSON bodies are read by this interceptor, after the guards.
  app.useGlobalInterceptors(new RequestInputInterceptor({ bodyLimit: options.bodyLimit, selfParsedBodyPaths: options.selfParsedBodyPaths }));
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new ProblemJsonFilter());
  app.enableShutdownHooks();
  // The app's @EventPattern handlers (if it has MessagingModule): consumed from the app's bootstrap on.
  await connectMessageHandlers(app);

  if (!settings.OPENAPI_DOCS_ENABLED || options.serveDocs === false) return app;
  serveOpenApiDocument(app, buildOpenApiDocument(app, options));
  return app;
}
