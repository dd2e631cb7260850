import type { IncomingMessage } from 'node:http';

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
