import { ApiPropertyOptional } from '@nestjs/swagger';
import { apiProblemsDecorator, ProblemDto } from '@courier/http';

/** A 409 about the order's status carries where the order is (ProblemException extensions). */
export class OrderStatusProblemDto extends ProblemDto {
  @ApiPropertyOptional({ example: 'NEW', description: 'The order\'s status (409 INVALID_TRANSITION and ORDER_NOT_DUE).' })
  currentStatus?: string;

  @ApiPropertyOptional({ example: '2025-06-01T11:00:00.000Z', description: 'When ROUTE and ASSIGN become possible (409 ORDER_NOT_DUE).' })
  dueAt?: string;
}

/** Documents error answers as problem JSON (@courier/http's ProblemDto), with this API's description per status (overridable). */
export const ApiProblems = apiProblemsDecorator({
  descriptions: {
    400: 'INVALID_PAYLOAD: the body is not valid JSON, or nests objects or arrays more than 32 levels (refused before it is parsed).',
    401: 'AUTHENTICATION_FAILED: X-Internal-Api-Key missing or not one of INTERNAL_API_KEYS.',
    413: 'PAYLOAD_TOO_LARGE: the body is larger than 256 KiB.',
    422: 'VALIDATION_ERROR: invalid fields, listed in `errors`.',
    500: 'INTERNAL_ERROR: unexpected failure; quote the requestId.',
  },
  extensions: {
    409: {
      schema: OrderStatusProblemDto,
      example: {
        type: 'https://docs.courier-integration.dev/problems/invalid-transition',
        title: 'Conflict',
        status: 409,
        detail: 'Trigger PICK_UP is not allowed in status NEW.',
        code: 'INVALID_TRANSITION',
        currentStatus: 'NEW',
        requestId: '3f0c2a49-3d1b-4a3c-9d0e-3c0b9a1f2e11',
      },
    },
  },
});
