import { IsBoolean, IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Matches, Min } from 'class-validator';

/** Whether the platform accepted the integration's credentials for its restaurant (THIRD_PARTY: always verified). */
export const INTEGRATION_VERIFICATION_STATES = ['unverified', 'verified', 'failed'] as const;
export type IntegrationVerificationState = (typeof INTEGRATION_VERIFICATION_STATES)[number];

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

  /**
   * The platform's verdict on the credentials for providerRestaurantId. Only a `verified` integration
   * is handed its platform orders; the others' orders are kept, withheld, until it is. Absent (older
   * producers): unverified.
   */
  @IsOptional()
  @IsIn(INTEGRATION_VERIFICATION_STATES)
  verification?: IntegrationVerificationState;

  /** When the platform last verified it (absent or null: not verified). */
  @IsOptional()
  @IsISO8601()
  verifiedAt?: string | null;

  /** Non-secret credential fields in clear, as the platform's definition lists them (e.g. { chainCode, username }). */
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
