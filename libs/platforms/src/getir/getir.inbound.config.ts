import { IsInt, IsOptional, IsString, Min, MinLength } from 'class-validator';
import { RequiredInProduction, ToNumber } from '@courier/config';

/** What status-dispatcher needs to take PLATFORM_A's orders in (webhooks and the fallback polling), validated at start. */
export class GetirInboundConfig {
  /** The static `x-api-key` PLATFORM_A sends with its new- and cancelled-order webhooks. Unset: they are refused (401). */
  @RequiredInProduction()
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'PLATFORM_A_WEBHOOK_API_KEY must be at least 16 characters' })
  PLATFORM_A_WEBHOOK_API_KEY?: string;

  /**
   * How often each active PLATFORM_A integration runs Getir's fallback polling (unapproved, cancelled
   * and active food orders) for webhooks that never arrived. Getir asks for no tight loop: about a minute.
   */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_A_POLL_INTERVAL_MS must be an integer' })
  @Min(100)
  PLATFORM_A_POLL_INTERVAL_MS: number = 60_000;
}
