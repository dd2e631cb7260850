import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';

/** Largest webhook body accepted (the suite's JSON body limit). */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

export type RequestWithRawBody = IncomingMessage & { rawBody?: Buffer; body?: unknown; _body?: boolean };

/**
 * Reads the exact bytes of a webhook body into `req.rawBody`, before the JSON parser runs, because
 * signatures are computed over those bytes and a re-serialised body need not match them. Marks
 * the body as read so the JSON parser leaves it alone; the webhook service parses it itself.
 */
export function captureRawBody(limit = WEBHOOK_BODY_LIMIT) {
  return (req: RequestWithRawBody, _res: ServerResponse, next: (error?: unknown) => void): void => {
    if (req.method !== 'POST') return next();
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        // Keep reading (and dropping) the rest, so the error answer reaches the client.
        next(new ProblemException(413, ErrorCode.PayloadTooLarge, `The webhook body is larger than ${limit} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      req.rawBody = Buffer.concat(chunks);
      req._body = true;
      req.body = undefined;
      next();
    });
    req.on('error', (error) => {
      if (failed) return;
      failed = true;
      next(error);
    });
  };
}
