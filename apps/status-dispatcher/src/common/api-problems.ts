import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'trigger' })
  field: string;

  @ApiProperty({ example: 'must be one of APPROVE, ROUTE, ASSIGN, ACCEPT, PREPARE, PICK_UP, DELIVER, CANCEL' })
  message: string;
}

/** RFC 9457 problem details, as every error of this API is answered (application/problem+json). */
export class ProblemDto {
  @ApiProperty({ example: 'https://docs.courier-integration.dev/problems/invalid-transition' })
  type: string;

  @ApiProperty({ example: 'Conflict' })
  title: string;

  @ApiProperty({ example: 409 })
  status: number;

  @ApiProperty({ example: 'Trigger PICK_UP is not allowed in status NEW.' })
  detail: string;

  @ApiProperty({ example: 'INVALID_TRANSITION', description: 'Machine-readable error code.' })
  code: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Field-level problems (422 VALIDATION_ERROR).' })
  errors?: FieldErrorDto[];

  @ApiPropertyOptional({ example: 'NEW', description: 'The order\'s status (409 INVALID_TRANSITION and ORDER_NOT_DUE).' })
  currentStatus?: string;

  @ApiPropertyOptional({ example: '2025-06-01T11:00:00.000Z', description: 'When ROUTE and ASSIGN become possible (409 ORDER_NOT_DUE).' })
  dueAt?: string;

  @ApiProperty({ example: '3f0c2a49-3d1b-4a3c-9d0e-3c0b9a1f2e11', description: 'Id of the request (also in X-Request-Id).' })
  requestId: string;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'INVALID_PAYLOAD: the body is not valid JSON.',
  401: 'AUTHENTICATION_FAILED: X-Internal-Api-Key missing or not one of INTERNAL_API_KEYS.',
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
