import { IsBoolean, IsInt, IsISO8601, IsObject, IsOptional, IsString, Matches, Min } from 'class-validator';

/**
 * `integration.upserted`: an integration was created or changed (fields, activity, or its secrets
 * re-encrypted). Carries the whole record; `version` grows by one per change of the integration.
 */
export class IntegrationUpsertedEvent {
  @IsString()
  integrationId!: string;

  @Matches(/^rest_[A-Za-z0-9_-]{20,}$/)
  restaurantId!: string;

  /** Neutral platform code (PLATFORM_A ... THIRD_PARTY), not the wire code. */
  @IsString()
  platform!: string;

  @IsString()
  providerRestaurantId!: string;

  @IsBoolean()
  isActive!: boolean;

  /**
   * The integration no longer holds its providerRestaurantId: another integration does (an
   * operator's transfer, or the clean-up of duplicates). It is inactive and receives no orders.
   * Absent (older producers): false.
   */
  @IsOptional()
  @IsBoolean()
  displaced?: boolean;

  /** Non-secret credential fields in clear, e.g. { chainCode, username } for PLATFORM_B. */
  @IsObject()
  settings!: Record<string, string>;

  /** Secret credential fields as SecretBox ciphertexts, e.g. { password: "v1:k1:..." }. */
  @IsObject()
  secrets!: Record<string, string>;

  @IsInt()
  @Min(1)
  version!: number;

  @IsISO8601()
  createdAt!: string;

  @IsISO8601()
  updatedAt!: string;

  @IsISO8601()
  occurredAt!: string;
}
