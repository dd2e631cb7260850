import type { NextFunction, Request, Response } from 'express';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Where the test runner asks the apps to log their answers (tools/run-tests.mjs); unset: nothing is recorded. */
export const RESPONSE_LOG_DIR_VARIABLE = 'OPENAPI_RESPONSE_LOG_DIR';

/** Longest body kept per answer: the checker validates what it has, and a cut body is marked. */
const MAX_BODY_BYTES = 256 * 1024;

/** One answer of an app, as tools/openapi-responses.mjs checks it against the app's published document. */
export interface LoggedResponse {
  /** The document's title (HttpAppOptions.title), which names the app's docs/openapi/*.json. */
  document: string;
  method: string;
  /** Express's route pattern (`/api/v1/my/integrations/:id`); null when no route matched. */
  route: string | null;
  status: number;
  contentType: string | null;
  body: string;
  truncated: boolean;
}

/**
 * Test equipment switched on by OPENAPI_RESPONSE_LOG_DIR: appends every answer of the app (route
 * pattern, status, content type, body) as a JSON line to a file of this process in that folder.
 * Production never sets the variable; then this returns undefined and nothing is installed.
 */
export function responseLogger(document: string, env: NodeJS.ProcessEnv = process.env): ((request: Request, response: Response, next: NextFunction) => void) | undefined {
  const dir = env[RESPONSE_LOG_DIR_VARIABLE];
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `responses-${process.pid}.ndjson`);
  return (request, response, next) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      if (size + buffer.length > MAX_BODY_BYTES) {
        truncated = true;
        return;
      }
      chunks.push(buffer);
      size += buffer.length;
    };
    const write = response.write;
    const end = response.end;
    response.write = function loggedWrite(this: Response, ...args: unknown[]) {
      keep(args[0], args[1]);
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as Response['write'];
    response.end = function loggedEnd(this: Response, ...args: unknown[]) {
      keep(args[0], args[1]);
      return (end as (...a: unknown[]) => Response).apply(this, args);
    } as Response['end'];
    response.once('finish', () => {
      const entry: LoggedResponse = {
        document,
        method: request.method,
        route: typeof request.route?.path === 'string' ? `${request.baseUrl ?? ''}${request.route.path}` : null,
        status: response.statusCode,
        contentType: (response.getHeader('content-type') as string | undefined) ?? null,
        body: Buffer.concat(chunks).toString('utf8'),
        truncated,
      };
      appendFileSync(file, `${JSON.stringify(entry)}\n`);
    });
    next();
  };
}
