import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'items[0].quantity' })
  field: string;

  @ApiProperty({ example: 'must be greater than 0' })
  message: string;
}

/** RFC 9457 problem details, as every error of every app is answered (application/problem+json, ProblemJsonFilter). */
export class ProblemDto {
  @ApiProperty({ example: 'https://docs.courier-integration.dev/problems/validation-error' })
  type: string;

  @ApiProperty({ example: 'Unprocessable Content' })
  title: string;

  @ApiProperty({ example: 422 })
  status: number;

  @ApiProperty({ example: 'The request has invalid fields.' })
  detail: string;

  @ApiProperty({ example: 'VALIDATION_ERROR', description: 'Machine-readable error code.' })
  code: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Field-level problems (422 VALIDATION_ERROR, and 400s that name their fields).' })
  errors?: FieldErrorDto[];

  @ApiProperty({ example: '3f0c2a49-3d1b-4a3c-9d0e-3c0b9a1f2e11', description: 'Id of the request (also in X-Request-Id).' })
  requestId: string;
}

/** Response headers of a problem answer (e.g. Retry-After of a 429), as @ApiResponse documents them. */
export type ProblemHeaderDocs = Record<string, { description: string; schema: { type: string } }>;

/**
 * The headers of every 429 of the suite's limits (libs/rate-limit rateLimitHeaders): Retry-After, and
 * RateLimit / RateLimit-Policy as the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-10) writes them.
 */
export const RATE_LIMIT_HEADER_DOCS: ProblemHeaderDocs = {
  'Retry-After': { description: 'Seconds until the limit\'s window starts again.', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'The limit that refused, as a structured field: `"<policy>";q=<quota>;w=<window seconds>`, e.g. `"failures";q=20;w=60`.', schema: { type: 'string' } },
  RateLimit: { description: 'What is left of it: `"<policy>";r=0;t=<seconds until reset>` (t equals Retry-After).', schema: { type: 'string' } },
};

/** A ProblemDto subclass documenting the extension members of some answers, with an example of one such answer. */
export interface ProblemExtensionDocs {
  schema: Type<ProblemDto>;
  example: Record<string, unknown>;
}

/** Documents one error answer as problem JSON (ProblemDto, or `extension`'s subclass and example). */
export function ApiProblem(status: number, description: string, headers?: ProblemHeaderDocs, extension?: ProblemExtensionDocs) {
  const schema = extension?.schema ?? ProblemDto;
  return applyDecorators(
    ApiExtraModels(schema, FieldErrorDto),
    ApiResponse({
      status,
      description,
      headers,
      content: { 'application/problem+json': { schema: { $ref: getSchemaPath(schema) }, ...(extension ? { example: extension.example } : {}) } },
    }),
  );
}

/** A documented error answer: its status (described by the app's default), or a status with its own description. */
export type ProblemResponse = number | readonly [status: number, description: string];

export interface ProblemDocsOptions {
  /** The app's description of each status, used when a use site gives only the status. */
  descriptions: Readonly<Record<number, string>>;
  /** Statuses whose answers carry extension members (ProblemException's `extensions`). */
  extensions?: Readonly<Record<number, ProblemExtensionDocs>>;
  /** Response headers of some statuses' answers (e.g. a 429's RATE_LIMIT_HEADER_DOCS). */
  headers?: Readonly<Record<number, ProblemHeaderDocs>>;
}

/**
 * An app's `@ApiProblems(...)`: documents error answers as problem JSON with the app's default
 * description per status (a use site may give its own).
 */
export function apiProblemsDecorator(options: ProblemDocsOptions) {
  return (...responses: ProblemResponse[]) =>
    applyDecorators(
      ...responses.map((entry) => {
        const [status, description] = typeof entry === 'number' ? [entry, options.descriptions[entry] ?? 'Error.'] : entry;
        return ApiProblem(status, description, options.headers?.[status], options.extensions?.[status]);
      }),
    );
}
