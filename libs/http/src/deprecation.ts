import { applyDecorators, Header } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';

export interface DeprecationNotice {
  /** When the operation was deprecated. */
  since: Date;
  /** When it stops answering (at least six months after `since` for the restaurant API). */
  sunset: Date;
  /** Where the replacement is described (a docs/api.md anchor or an absolute URL). */
  link: string;
}

/** The headers a deprecated operation answers with: `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `Link` to what replaces it. */
export function deprecationHeaders({ since, sunset, link }: DeprecationNotice): Record<string, string> {
  if (!(sunset.getTime() > since.getTime())) throw new Error('a sunset must come after the deprecation');
  return {
    Deprecation: `@${Math.floor(since.getTime() / 1000)}`,
    Sunset: sunset.toUTCString(),
    Link: `<${link}>; rel="deprecation"; type="text/html"`,
  };
}

/**
 * Marks an operation deprecated as docs/api.md ("Versions and deprecation") promises: every answer
 * carries the headers above, and the OpenAPI document marks the operation `deprecated`.
 */
export function Deprecated(notice: DeprecationNotice): MethodDecorator {
  const headers = deprecationHeaders(notice);
  return applyDecorators(
    ApiOperation({ deprecated: true }),
    ApiResponse({
      status: 'default',
      description: `Deprecated; sunset ${headers.Sunset}.`,
      headers: Object.fromEntries(Object.keys(headers).map((name) => [name, { schema: { type: 'string' } }])),
    }),
    ...Object.entries(headers).map(([name, value]) => Header(name, value)),
  );
}
