import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '@courier/contracts';
import { hasRequestBody, isJsonMediaType, MAX_INPUT_DEPTH, nestsDeeperThan, ProblemException, readJsonBody, unsupportedMediaType } from '@courier/http';

/** The largest order body (decisions.md: over 256 KiB is 413). */
export const MAX_ORDER_BODY_BYTES = 256 * 1024;

const invalid = (detail: string) => new ProblemException(400, ErrorCode.InvalidPayload, detail);

/**
 * Step 3 of the check order, after authentication and the rate limit: reads and parses the body
 * (the shared JSON reader skips this route; its reading is reused here). 415 UNSUPPORTED_MEDIA_TYPE
 * for a body whose Content-Type is not JSON (or missing), as on every JSON endpoint; 413 over the
 * limit; 400 INVALID_PAYLOAD for no body, a charset other than UTF-8, a compressed body, invalid
 * JSON, anything but a JSON object, or nesting deeper than the suite's limit.
 */
export async function readOrderBody(request: IncomingMessage & { body?: unknown }): Promise<Record<string, unknown>> {
  const contentType = request.headers['content-type'];
  if (!isJsonMediaType(contentType)) {
    if (hasRequestBody(request)) throw unsupportedMediaType();
    throw invalid('The request body must be a JSON object (the order).');
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw invalid('The body must be encoded in UTF-8.');
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') throw invalid('Compressed bodies (Content-Encoding) are not accepted.');
  // Parsed upstream after all (a route variant the shared reader did not skip): take its result.
  const body: unknown = request.readableEnded ? request.body : await readJsonBody(request, MAX_ORDER_BODY_BYTES);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('The request body must be a JSON object (the order).');
  if (nestsDeeperThan(body, MAX_INPUT_DEPTH)) throw invalid(`The request body nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep.`);
  return body as Record<string, unknown>;
}
