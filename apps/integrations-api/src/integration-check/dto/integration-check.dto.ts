import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const CHECK_RESULTS = ['ok', 'rejected', 'unreachable', 'not_configured', 'not_applicable'] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

/** Answer of POST /api/v1/my/integrations/{id}/check. */
export class IntegrationCheckDto {
  @ApiProperty({ format: 'uuid' })
  integrationId: string;

  @ApiProperty({ example: 'PLATFORM_B', description: 'Wire code of the platform.' })
  platform: string;

  @ApiProperty({
    enum: CHECK_RESULTS,
    description:
      'ok: the platform accepted the stored credentials (a real login, or a harmless read for platforms without one); rejected: the platform refused them, ' +
      'or they cannot be sent to it (a value stored before the header rule that an HTTP header cannot carry; detail names the header): fix them with PUT; ' +
      'unreachable: no verdict (network error, 429, 5xx): try again later; not_configured: a deployment setting the platform needs is missing (e.g. PLATFORM_A_APP_SECRET_KEY) ' +
      'or the secrets cannot be decrypted; not_applicable: THIRD_PARTY has no platform credentials.',
  })
  result: CheckResult;

  @ApiProperty({ description: 'true only for result ok.' })
  ok: boolean;

  @ApiProperty({ example: 'PLATFORM_B accepted the login (username and password).' })
  detail: string;

  @ApiPropertyOptional({ example: 401, description: 'The platform\'s HTTP status, when it answered.' })
  httpStatus?: number;

  @ApiProperty({ example: '2025-06-01T12:00:00.000Z' })
  checkedAt: string;
}
