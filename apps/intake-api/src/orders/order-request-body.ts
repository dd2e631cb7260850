import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '@courier/contracts';
import { isJsonMediaType, MAX_INPUT_DEPTH, nestsDeeperThan, ProblemException, refusePrototypeKeys } from '@courier/http';

/** The largest order body (decisions.md: over 256 KiB is 413). */
export const MAX_ORDER_BODY_BYTES = 256 * 1024;

const invalid = (detail: string) => new ProblemException(400, ErrorCode.InvalidPayload, detail);
const tooLarge = () => new ProblemException(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${MAX_ORDER_BODY_BYTES / 1024} KiB.`);

/**
 * Step 3 of the check order, after authentication and the rate limit: reads and parses the body
 * (the global JSON parser skips this route). 413 over the limit; 400 INVALID_PAYLOAD for a
 * Content-Type that is not JSON, a charset other than UTF-8, a compressed body, invalid JSON,
 * anything but a JSON object, nesting deeper than the suite's limit, or a `__proto__` /
 * `constructor.prototype` key (the check every app's parsed bodies get).
 */
export async function readOrderBody(request: IncomingMessage & { body?: unknown }): Promise<Record<string, unknown>> {
  const contentType = request.headers['content-type'];
  if (!isJsonMediaType(contentType)) throw invalid('Content-Type must be application/json.');
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw invalid('The body must be encoded in UTF-8.');
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') throw invalid('Compressed bodies (Content-Encoding) are not accepted.');
  const declaredLength = Number(request.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > MAX_ORDER_BODY_BYTES) throw tooLarge();

  let body: unknown;
  if (request.readableEnded) {
    // Parsed upstream after all (a route variant the parser did not skip): take its result.
    body = request.body;
  } else {
    const text = (await readLimited(request, MAX_ORDER_BODY_BYTES)).toString('utf8');
    try {
      body = JSON.parse(text);
    } catch {
      throw invalid('The request body is not valid JSON.');
    }
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('The request body must be a JSON object (the order).');
  if (nestsDeeperThan(body, MAX_INPUT_DEPTH)) throw invalid(`The request body nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep.`);
  refusePrototypeKeys(body);
  return body as Record<string, unknown>;
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
      if (size > limit) finish(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(invalid('The request body could not be read.'));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onError);
  });
}
