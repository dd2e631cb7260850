import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'status' })
  field: string;

  @ApiProperty({ example: 'status must be one of the following values: pending, retrying, delivered, failed, skipped' })
  message: string;
}

/** RFC 9457 problem details, as every error of this API is answered (application/problem+json). */
export class ProblemDto {
  @ApiProperty({ example: 'https://docs.courier-integration.dev/problems/delivery-not-found' })
  type: string;

  @ApiProperty({ example: 'Not Found' })
  title: string;

  @ApiProperty({ example: 404 })
  status: number;

  @ApiProperty({ example: 'No webhook delivery with this id.' })
  detail: string;

  @ApiProperty({ example: 'DELIVERY_NOT_FOUND', description: 'Machine-readable error code.' })
  code: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Field-level problems (422 VALIDATION_ERROR).' })
  errors?: FieldErrorDto[];

  @ApiProperty({ example: '3f0c2a49-3d1b-4a3c-9d0e-3c0b9a1f2e11', description: 'Id of the request (also in X-Request-Id).' })
  requestId: string;
}

const DESCRIPTIONS: Record<number, string> = {
  401: 'AUTHENTICATION_FAILED: X-API-Key or X-API-Secret missing or wrong, or the account is disabled.',
  404: 'DELIVERY_NOT_FOUND: no delivery with this id for this account (malformed ids and other accounts\' deliveries too).',
  422: 'VALIDATION_ERROR: invalid query parameters, listed in `errors`.',
  429: 'RATE_LIMIT_EXCEEDED: too many redeliveries this minute, or too many failed authentications from this address or for this key; Retry-After says when to try again.',
  500: 'INTERNAL_ERROR: unexpected failure; quote the requestId.',
};

/** Documents error answers as problem JSON, with a description per status. */
export function ApiProblems(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(ProblemDto, FieldErrorDto),
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error.', content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDto) } } } }),
    ),
  );
}
