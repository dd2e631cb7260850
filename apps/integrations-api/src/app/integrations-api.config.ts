import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Max, Min, MinLength, registerDecorator, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { AlsoReads, AuthThrottledConfig, parseDuration, ToBoolean, ToNumber, IsOriginList, ToList } from '@courier/config';
import { parseEncryptionKeys } from '@courier/crypto';
import { PLATFORM_CLIENT_CONFIGS } from '@courier/platforms';

/** Valid when the value parses as a key list; the message is the parser's (it names the variable). */
export function IsEncryptionKeyList(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEncryptionKeyList',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => {
          try {
            parseEncryptionKeys(typeof value === 'string' ? value : undefined, propertyName);
            return true;
          } catch {
            return false;
          }
        },
        defaultMessage: (args) => {
          try {
            parseEncryptionKeys(typeof args?.value === 'string' ? args.value : undefined, propertyName);
            return `${propertyName} is invalid`;
          } catch (error) {
            return (error as Error).message;
          }
        },
      },
    });
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ToDuration = () => Transform(({ value }) => (value === undefined || value === '' ? undefined : typeof value === 'number' ? value : parseDuration(String(value))));

/** Environment of integrations-api (see README, "Configuration"). */
@AlsoReads(...PLATFORM_CLIENT_CONFIGS)
export class IntegrationsConfig extends AuthThrottledConfig {
  /** HTTP port of the POS and admin API. */
  @ToNumber()
  @IsInt({ message: 'POS_PORT must be an integer port number' })
  @Min(1)
  @Max(65535)
  POS_PORT: number = 3001;

  /**
   * Token of the admin API (X-Admin-Token). Required in the distributed mode (RABBITMQ_URL set);
   * the one-machine launcher generates one. Without it the admin API refuses every request.
   */
  @ValidateIf((config: IntegrationsConfig) => config.ADMIN_TOKEN !== undefined || Boolean(config.RABBITMQ_URL))
  @IsString({ message: 'ADMIN_TOKEN is required when RABBITMQ_URL is set' })
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  /** `keyId:base64key,...` (32-byte keys); the first encrypts, all decrypt. */
  @IsEncryptionKeyList()
  SECRETS_ENCRYPTION_KEYS!: string;

  /** Development only: webhook URLs may be http and point at private or loopback addresses. */
  @ToBoolean()
  @IsBoolean({ message: 'WEBHOOK_ALLOW_INSECURE_URLS must be true or false' })
  WEBHOOK_ALLOW_INSECURE_URLS: boolean = false;

  /**
   * Exact origins (`http://127.0.0.1:4444`, comma-separated) whose webhook URLs may be http and on
   * loopback or private addresses although WEBHOOK_ALLOW_INSECURE_URLS is false: the one-machine
   * mode sets its reference receiver's. Every other such URL is still refused.
   */
  @ToList()
  @IsOriginList({ message: 'WEBHOOK_ALLOWED_INSECURE_ORIGINS must be a comma-separated list of origins such as http://127.0.0.1:4444 (scheme, host and port; no path)' })
  WEBHOOK_ALLOWED_INSECURE_ORIGINS: string[] = [];

  /**
   * Credential checks (POST /api/v1/my/integrations/{id}/check) of one integration a minute; each is
   * a real platform login, made with the deployment's shared app key where the platform has one.
   */
  @ToNumber()
  @IsInt({ message: 'INTEGRATION_CHECK_LIMIT_PER_MINUTE must be a positive integer' })
  @Min(1, { message: 'INTEGRATION_CHECK_LIMIT_PER_MINUTE must be at least 1' })
  INTEGRATION_CHECK_LIMIT_PER_MINUTE: number = 3;

  /** Credential checks of all the integrations of one account an hour (fixed hour, shared by the replicas). */
  @ToNumber()
  @IsInt({ message: 'INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR must be a positive integer' })
  @Min(1, { message: 'INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR must be at least 1' })
  INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR: number = 30;

  /**
   * How often unverified platform integrations are checked again with their platform (each one at
   * most once per period across replicas), and POS announcements still owed are retried.
   */
  @ToNumber()
  @IsInt({ message: 'INTEGRATION_VERIFICATION_RETRY_MS must be an integer number of milliseconds' })
  @Min(1000, { message: 'INTEGRATION_VERIFICATION_RETRY_MS must be at least 1000' })
  @Max(86_400_000, { message: 'INTEGRATION_VERIFICATION_RETRY_MS must be at most 86400000 (a day)' })
  INTEGRATION_VERIFICATION_RETRY_MS: number = 60_000;

  /** At most this many integrations verified (and POS announcements sent) per period and replica: a low rate against the platforms. */
  @ToNumber()
  @IsInt({ message: 'INTEGRATION_VERIFICATION_BATCH must be an integer' })
  @Min(1, { message: 'INTEGRATION_VERIFICATION_BATCH must be at least 1' })
  @Max(100, { message: 'INTEGRATION_VERIFICATION_BATCH must be at most 100' })
  INTEGRATION_VERIFICATION_BATCH: number = 10;

  /**
   * How long a rotated-out webhook signing secret still signs (beside the new one), so receivers
   * can switch without refusing webhooks; 0 ends it at once. Capped at 7 days: an old secret that
   * lingers is a risk of its own.
   */
  @ToDuration()
  @ValidateBy({
    name: 'isRotationGrace',
    validator: {
      validate: (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 7 * DAY_MS,
      defaultMessage: () => 'WEBHOOK_SECRET_ROTATION_GRACE must be a duration such as 0, 30s, 4h or 1d, at most 7d',
    },
  })
  WEBHOOK_SECRET_ROTATION_GRACE: number = DAY_MS;
}
