import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, parseTrustProxy } from '@courier/config';
import { AppLogger, CORRELATION_HEADER, REQUEST_ID_HEADER, sanitiseCorrelationId, withCorrelationId } from '@courier/logging';
import { jsonBodyFilter } from './json-body';
import { ProblemJsonFilter } from './problem.filter';
import { strictValidationPipe } from './validation';

export interface HttpAppOptions {
  /** Title of the OpenAPI document (served at /docs and /docs-json). */
  title: string;
  description?: string;
  /** Largest accepted JSON body. */
  bodyLimit?: string;
  /** Security schemes the OpenAPI document declares. */
  apiKeyHeaders?: string[];
  basicAuth?: boolean;
  /**
   * Paths whose JSON body the global parser leaves alone because the handler reads it itself
   * (e.g. intake, whose check order puts authentication and rate limiting before parsing).
   */
  selfParsedBodyPaths?: string[];
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
  try {
    return app.get<{ TRUST_PROXY?: string }>(APP_CONFIG, { strict: false }).TRUST_PROXY;
  } catch {
    return undefined; // an app without the suite's config (a test module)
  }
}

/**
 * Creates (does not start) an HTTP app with the suite's conventions: buffered logs into pino, strict
 * validation, problem JSON for every error, body limit, OpenAPI at /docs, shutdown hooks.
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
  app.use(requestScope);
  const jsonTypes = options.selfParsedBodyPaths?.length ? jsonBodyFilter(options.selfParsedBodyPaths) : ['application/json', 'application/*+json'];
  app.useBodyParser('json', { limit: options.bodyLimit ?? '256kb', type: jsonTypes });
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new ProblemJsonFilter());
  app.enableShutdownHooks();

  const builder = new DocumentBuilder().setTitle(options.title).setDescription(options.description ?? '').setVersion('1.0');
  for (const header of options.apiKeyHeaders ?? []) builder.addApiKey({ type: 'apiKey', in: 'header', name: header }, header);
  if (options.basicAuth) builder.addBasicAuth();
  const document = SwaggerModule.createDocument(app, builder.build());
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
  return app;
}
