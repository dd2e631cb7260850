import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '@courier/contracts';
import { jsonNestsDeeperThan, MAX_INPUT_DEPTH } from './json-depth';
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
 * Which requests the shared reader leaves alone: those on the given paths, whose handlers read the
 * raw body themselves (intake, with refusals of its own in its check order).
 */
export function isSelfParsedPath(selfParsedPaths: readonly string[]): (req: IncomingMessage) => boolean {
  const skipped = new Set(selfParsedPaths.map(routeMatchKey));
  return (req) => skipped.has(routeMatchKey(req.url ?? '/'));
}

/** Which requests get their JSON body parsed: JSON bodies, except on the self-parsed paths. */
export function jsonBodyFilter(selfParsedPaths: readonly string[]): (req: IncomingMessage) => boolean {
  const skipped = isSelfParsedPath(selfParsedPaths);
  return (req) => isJsonMediaType(req.headers['content-type']) && !skipped(req);
}

/** The largest JSON body an app accepts unless told otherwise (decisions.md: over 256 KiB is 413). */
export const DEFAULT_JSON_BODY_LIMIT = 256 * 1024;

/** Whether the request carries a body at all (a Transfer-Encoding, or a Content-Length other than 0). */
export function hasRequestBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');
}

const tooLarge = (limit: number) => new ProblemException(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${Math.floor(limit / 1024)} KiB.`);
const unreadable = () => new ProblemException(400, ErrorCode.InvalidPayload, 'The request body could not be read.');

/**
 * Reads and parses a JSON body of at most `limit` bytes: 413 over it, 415 for a charset other than
 * UTF-8 or a compressed body, 400 for nesting deeper than `maxDepth` (found by a scan of the bytes,
 * before JSON.parse spends any time on them) and for invalid JSON with a fixed detail (never
 * JSON.parse's message, which quotes the body: a secret sent by mistake would come back in the
 * error). Any JSON value.
 */
export async function readJsonBody(request: IncomingMessage, limit = DEFAULT_JSON_BODY_LIMIT, maxDepth = MAX_INPUT_DEPTH): Promise<unknown> {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ProblemException(415, ErrorCode.UnsupportedMediaType, 'The request body must be encoded in UTF-8.');
  }
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new ProblemException(415, ErrorCode.UnsupportedMediaType, 'Compressed request bodies (Content-Encoding) are not accepted.');
  }
  const declaredLength = Number(request.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > limit) throw tooLarge(limit);
  const bytes = await readLimited(request, limit);
  if (jsonNestsDeeperThan(bytes, maxDepth)) throw new ProblemException(400, ErrorCode.InvalidPayload, `The request body nests objects or arrays more than ${maxDepth} levels deep.`);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ProblemException(400, ErrorCode.InvalidPayload, 'The request body is not valid JSON.');
  }
}

/** The body's bytes, refusing more than `limit` without buffering them (the rest is discarded). */
function readLimited(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onError);
      if (error) {
        request.resume(); // drain what is left so the connection can answer
        reject(error);
      } else {
        resolve(Buffer.concat(chunks, size));
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(unreadable());
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onError);
  });
}
