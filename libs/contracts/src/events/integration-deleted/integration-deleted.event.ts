import { IsInt, IsISO8601, IsString, Matches, Min } from 'class-validator';

/** `integration.deleted`: the integration was removed; `version` is one more than its last upsert. */
export class IntegrationDeletedEvent {
  @IsString()
  integrationId!: string;

  @Matches(/^rest_[A-Za-z0-9_-]{20,}$/)
  restaurantId!: string;

  /** Neutral platform code. */
  @IsString()
  platform!: string;

  @IsString()
  providerRestaurantId!: string;

  @IsInt()
  @Min(1)
  version!: number;

  @IsISO8601()
  occurredAt!: string;
}
