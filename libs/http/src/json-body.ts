import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from './problem.exception';

/** `application/json` or any `application/<x>+json`, parameters ignored (what body-parser's json types match). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (typeof contentType !== 'string') return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[!#$&^_.+\-a-z0-9]+\+json$/.test(mediaType);
}

/** A path as the router matches it: without query, case-insensitive, trailing slashes ignored. */
export function routeMatchKey(url: string): string {
  const path = url.split('?')[0];
  return (path.replace(/\/+$/, '') || '/').toLowerCase();
}

/**
 * body-parser `type` option: JSON bodies, except on the given paths, whose handlers read the raw
 * body themselves (so they can authenticate and rate-limit before a malformed body is refused).
 */
export function jsonBodyFilter(selfParsedPaths: readonly string[]): (req: IncomingMessage) => boolean {
  const skipped = new Set(selfParsedPaths.map(routeMatchKey));
  return (req) => isJsonMediaType(req.headers['content-type']) && !skipped.has(routeMatchKey(req.url ?? '/'));
}

/** Errors body-parser raises (an http-errors error with a `type`). */
interface BodyParserError {
  type: string;
  expose: boolean;
}

export function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as BodyParserError).type === 'string' && 'expose' in error;
}

/**
 * A body-parser error as a problem with a fixed detail (anything else unchanged). Never the
 * parser's message: JSON.parse quotes the body, and a body may be a secret sent by mistake.
 */
export function jsonBodyProblem(error: unknown): unknown {
  if (!isBodyParserError(error)) return error;
  switch (error.type) {
    case 'entity.too.large':
      return new ProblemException(413, ErrorCode.PayloadTooLarge, 'The request body is larger than the limit.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ProblemException(415, ErrorCode.UnsupportedMediaType, 'The request body encoding is not supported.');
    case 'entity.parse.failed':
      return new ProblemException(400, ErrorCode.InvalidPayload, 'The request body is not valid JSON.');
    default:
      return new ProblemException(400, ErrorCode.InvalidPayload, 'The request body could not be read.');
  }
}
