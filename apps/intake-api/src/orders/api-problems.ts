import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'items[0].quantity' })
  field: string;

  @ApiProperty({ example: 'must be greater than 0' })
  message: string;
}

/** RFC 9457 problem details, as every error of this API is answered (application/problem+json). */
export class ProblemDto {
  @ApiProperty({ example: 'https://docs.courier-integration.dev/problems/validation-error' })
  type: string;

  @ApiProperty({ example: 'Unprocessable Content' })
  title: string;

  @ApiProperty({ example: 422 })
  status: number;

  @ApiProperty({ example: 'The order has invalid fields.' })
  detail: string;

  @ApiProperty({ example: 'VALIDATION_ERROR', description: 'Machine-readable error code.' })
  code: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Field-level problems (422 VALIDATION_ERROR, 400 MISSING_REQUIRED_FIELD).' })
  errors?: FieldErrorDto[];

  @ApiProperty({ example: '3f0c2a49-3d1b-4a3c-9d0e-3c0b9a1f2e11', description: 'Id of the request (also in X-Request-Id).' })
  requestId: string;
}

type HeaderDocs = Record<string, { description: string; schema: { type: string } }>;

/** Documents an error answer as problem JSON. */
export function ApiProblem(status: number, description: string, headers?: HeaderDocs) {
  return applyDecorators(
    ApiExtraModels(ProblemDto, FieldErrorDto),
    ApiResponse({ status, description, headers, content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDto) } } } }),
  );
}

export const UNAUTHORIZED = [
  401,
  'AUTHENTICATION_FAILED: no usable X-API-Key or Basic credentials, unknown key, wrong secret, or a disabled account.',
  { 'WWW-Authenticate': { description: 'Basic realm="order-intake"', schema: { type: 'string' } } },
] as const;

export const RATE_LIMITED = [
  429,
  'RATE_LIMIT_EXCEEDED: more than INTAKE_RATE_LIMIT_PER_MINUTE (default 600) requests in the current minute for this API key, across all replicas.',
  { 'Retry-After': { description: 'Seconds to wait: always 60.', schema: { type: 'integer' } } },
] as const;

export const INTERNAL_ERROR = [500, 'INTERNAL_ERROR: unexpected failure (e.g. the database is down); nothing was accepted; quote the requestId.'] as const;
