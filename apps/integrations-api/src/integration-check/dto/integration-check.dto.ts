import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { IntegrationVerificationState } from '@courier/contracts';

export const CHECK_RESULTS = ['ok', 'wrong_restaurant', 'rejected', 'unreachable', 'not_configured', 'not_applicable'] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

/** The integration's verification after the check (as in the integration record). */
export class IntegrationVerificationDto {
  @ApiProperty({ enum: ['unverified', 'verified', 'failed'], description: 'ok verifies; wrong_restaurant and rejected fail; no verdict (unreachable, not_configured) changes no state.' })
  state: IntegrationVerificationState;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  verifiedAt: string | null;

  @ApiProperty({ type: String, nullable: true })
  detail: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Keyed fingerprint of the credentials verified (no secret can be derived from it).' })
  fingerprint: string | null;
}

/** Answer of POST /api/v1/my/integrations/{id}/check. */
export class IntegrationCheckDto {
  @ApiProperty({ format: 'uuid' })
  integrationId: string;

  @ApiProperty({ example: 'PLATFORM_B', description: 'Wire code of the platform.' })
  platform: string;

  @ApiProperty({
    enum: CHECK_RESULTS,
    description:
      'ok: the platform accepted the stored credentials (a real login, or a harmless read for platforms without one), for providerRestaurantId where its answer names the restaurant; ' +
      'wrong_restaurant: the platform accepted them for another restaurant than providerRestaurantId (the detail names it); rejected: the platform refused them, ' +
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

  @ApiProperty({ type: IntegrationVerificationDto, description: 'The integration\'s verification, which this check updated (only a verified integration receives its platform orders).' })
  verification: IntegrationVerificationDto;
}
