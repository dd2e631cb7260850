import { IsOptional, IsString, MinLength } from 'class-validator';
import { RequiredInProduction } from '@courier/config';

/** What status-dispatcher needs to serve PLATFORM_B's POS plugin endpoints, validated at start. */
export class YemeksepetiInboundConfig {
  /**
   * The secret PLATFORM_B's middleware signs the JWT of every call to our plugin with (HMAC, issued
   * with the integration's credentials). Unset: the plugin calls are refused (401).
   */
  @RequiredInProduction()
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'PLATFORM_B_PLUGIN_SECRET must be at least 16 characters' })
  PLATFORM_B_PLUGIN_SECRET?: string;
}
