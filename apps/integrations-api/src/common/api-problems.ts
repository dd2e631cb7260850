import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'secretKey' })
  field: string;

  @ApiProperty({ example: 'is required for PLATFORM_A' })
  message: string;
}

/** RFC 9457 problem details, as every error of this API is answered (application/problem+json). */
export class ProblemDto {
  @ApiProperty({ example: 'https://docs.courier-integration.dev/problems/integration-not-found' })
  type: string;

  @ApiProperty({ example: 'Not Found' })
  title: string;

  @ApiProperty({ example: 404 })
  status: number;

  @ApiProperty({ example: 'No integration with this id.' })
  detail: string;

  @ApiProperty({ example: 'INTEGRATION_NOT_FOUND', description: 'Machine-readable error code.' })
  code: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Field-level problems (422 VALIDATION_ERROR).' })
  errors?: FieldErrorDto[];

  @ApiProperty({ example: '3f0c2a49-3d1b-4a3c-9d0e-3c0b9a1f2e11', description: 'Id of the request (also in X-Request-Id).' })
  requestId: string;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'INVALID_PAYLOAD: the body is not valid JSON.',
  401: 'AUTHENTICATION_FAILED: credentials missing or wrong, or the account is disabled.',
  404: 'Not found (for another account\'s resource as well).',
  409: 'Conflict.',
  413: 'PAYLOAD_TOO_LARGE: the body is larger than 256 KiB.',
  422: 'VALIDATION_ERROR: invalid fields, listed in `errors`.',
  500: 'INTERNAL_ERROR: unexpected failure; quote the requestId.',
};

/** Documents error answers as problem JSON, with a description per status (overridable). */
export function ApiProblems(...responses: Array<number | [number, string]>) {
  return applyDecorators(
    ApiExtraModels(ProblemDto, FieldErrorDto),
    ...responses.map((entry) => {
      const [status, description] = Array.isArray(entry) ? entry : [entry, DESCRIPTIONS[entry] ?? 'Error.'];
      return ApiResponse({ status, description, content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDto) } } } });
    }),
  );
}
