import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Matches, Min, ValidateIf, ValidateNested } from 'class-validator';

export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** The account's THIRD_PARTY integration, as intake needs it (403 INTEGRATION_DISABLED when absent or inactive). */
export class ThirdPartyIntegrationState {
  @IsString()
  integrationId!: string;

  /** The customer's own id for the restaurant; carried by the webhooks as providerRestaurantId. */
  @IsString()
  providerRestaurantId!: string;

  @IsBoolean()
  isActive!: boolean;
}

/** The account's webhook settings. The signing secret travels only encrypted (SecretBox ciphertext). */
export class WebhookSettingsState {
  @ValidateIf((_, value) => value !== null)
  @IsString()
  statusUrl!: string | null;

  @ValidateIf((_, value) => value !== null)
  @IsString()
  cancelUrl!: string | null;

  /** `v1:<keyId>:...` under SECRETS_ENCRYPTION_KEYS, or null when signing is off. Never plaintext. */
  @ValidateIf((_, value) => value !== null)
  @IsString()
  signingSecretCiphertext!: string | null;

  /**
   * The secret the last rotation replaced, while its grace period lasts: the sender signs with it
   * as well until `previousSigningSecretValidUntil`. Same encryption; null when there is none.
   * Optional so that snapshots from producers that predate rotation grace still validate.
   */
  @IsOptional()
  @IsString()
  previousSigningSecretCiphertext?: string | null;

  /** When the previous secret stops being used (ISO 8601); null when there is none. */
  @IsOptional()
  @IsISO8601()
  previousSigningSecretValidUntil?: string | null;
}

/**
 * The whole state of a restaurant account, carried by every account.* event (event-carried state
 * transfer): a consumer upserts its read model from any one of them and needs no call back to
 * integrations-api. `version` grows by one with each change of the account, so a consumer keeps
 * the snapshot only when its version is greater than the one it holds (events may arrive out of
 * order or twice).
 */
export class AccountSnapshot {
  @Matches(/^rest_[A-Za-z0-9_-]{20,}$/)
  restaurantId!: string;

  @IsString()
  name!: string;

  @IsIn(ACCOUNT_STATUSES as unknown as string[])
  status!: AccountStatus;

  /** SHA-256 hex of the API key (hashCredential): intake looks the account up by it. */
  @Matches(/^[0-9a-f]{64}$/)
  apiKeyHash!: string;

  /** SHA-256 hex of the API secret (Basic auth on intake may carry it). */
  @Matches(/^[0-9a-f]{64}$/)
  apiSecretHash!: string;

  @ValidateIf((_, value) => value !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => ThirdPartyIntegrationState)
  thirdParty!: ThirdPartyIntegrationState | null;

  @IsObject()
  @ValidateNested()
  @Type(() => WebhookSettingsState)
  webhooks!: WebhookSettingsState;

  @IsInt()
  @Min(1)
  version!: number;

  @IsISO8601()
  createdAt!: string;

  /** When the change this event reports happened (ISO 8601). */
  @IsISO8601()
  occurredAt!: string;
}
