import { IsInt, IsOptional, IsString, Max, Min, MinLength, registerDecorator, ValidationOptions } from 'class-validator';
import { AlsoReads, AuthThrottledConfig, RequiredInProduction, ToList, ToNumber } from '@courier/config';
import { parseEncryptionKeys } from '@courier/crypto';
import { PLATFORM_CLIENT_CONFIGS, PLATFORM_INBOUND_CONFIGS } from '@courier/platforms';

/** Shortest internal key accepted: a guessable key would open every order's lifecycle. */
export const MIN_INTERNAL_API_KEY_LENGTH = 16;

/** Why a key list is refused, naming the variable but never echoing a key. */
export function internalKeyListProblem(value: unknown, variable: string): string | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    return `${variable} is required: comma-separated keys, each at least ${MIN_INTERNAL_API_KEY_LENGTH} characters`;
  }
  const short = value.findIndex((key) => typeof key !== 'string' || key.length < MIN_INTERNAL_API_KEY_LENGTH);
  if (short >= 0) return `${variable}: key ${short + 1} is shorter than ${MIN_INTERNAL_API_KEY_LENGTH} characters`;
  return undefined;
}

function IsInternalKeyList(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isInternalKeyList',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => internalKeyListProblem(value, propertyName) === undefined,
        defaultMessage: (args) => internalKeyListProblem(args?.value, propertyName) ?? `${propertyName} is invalid`,
      },
    });
}

function IsEncryptionKeyList(options?: ValidationOptions) {
  const problem = (value: unknown, variable: string): string | undefined => {
    try {
      parseEncryptionKeys(typeof value === 'string' ? value : undefined, variable);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEncryptionKeyList',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => problem(value, propertyName) === undefined,
        defaultMessage: (args) => problem(args?.value, propertyName) ?? `${propertyName} is invalid`,
      },
    });
}

/** Environment of status-dispatcher (see README, "Configuration"). Each platform's client settings (PLATFORM_CLIENT_CONFIGS) and inbound settings are classes in its folder (libs/platforms). */
@AlsoReads(...PLATFORM_CLIENT_CONFIGS, ...PLATFORM_INBOUND_CONFIGS)
export class DispatcherConfig extends AuthThrottledConfig {
  /** HTTP port of the internal and platform-webhook endpoints. */
  @ToNumber()
  @IsInt({ message: 'STATUS_DISPATCHER_PORT must be an integer port number' })
  @Min(1)
  @Max(65535)
  STATUS_DISPATCHER_PORT: number = 3002;

  /**
   * Keys of the internal endpoints (X-Internal-Api-Key), comma-separated; every one is accepted,
   * so a new key can be added, callers moved to it, and the old one removed (rotation).
   */
  @ToList()
  @IsInternalKeyList()
  INTERNAL_API_KEYS!: string[];

  /**
   * Token of the operators' admin API (X-Admin-Token on /admin/v1/*), the same as integrations-api's
   * in a deployment. Without it the admin API refuses every request.
   */
  @RequiredInProduction()
  @IsOptional()
  @IsString({ message: 'ADMIN_TOKEN must be a string' })
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  /** Opens the integrations' secret ciphertexts (the platform calls need the credentials). */
  @IsEncryptionKeyList()
  SECRETS_ENCRYPTION_KEYS!: string;

  /**
   * A push is decided on the order's committed state and written in one conditional statement; when
   * another write of the order came first it decides again, and after this many conflicts in a row
   * it decides under the order's row lock. 0: always under the row lock (a seven-statement transaction).
   */
  @ToNumber()
  @IsInt({ message: 'STATUS_PUSH_OPTIMISTIC_ATTEMPTS must be an integer' })
  @Min(0)
  @Max(20)
  STATUS_PUSH_OPTIMISTIC_ATTEMPTS: number = 3;

  /** First retry delay of a platform call (doubles per attempt, ±20 % jitter). */
  @ToNumber()
  @IsInt({ message: 'STATUS_PUSH_RETRY_BASE_MS must be an integer' })
  @Min(10)
  STATUS_PUSH_RETRY_BASE_MS: number = 1_000;

  /** Longest delay between two retries of a platform call. */
  @ToNumber()
  @IsInt({ message: 'STATUS_PUSH_RETRY_MAX_DELAY_MS must be an integer' })
  @Min(10)
  STATUS_PUSH_RETRY_MAX_DELAY_MS: number = 60_000;

  /** A status update still not sent this long after it was accepted is failed. */
  @ToNumber()
  @IsInt({ message: 'STATUS_PUSH_RETRY_MAX_AGE_MS must be an integer' })
  @Min(1_000)
  STATUS_PUSH_RETRY_MAX_AGE_MS: number = 3_600_000;

  /**
   * Other numbers for the platforms' call budgets (tests, the one-machine mode):
   * `PLATFORM_A:token=40/1300,PLATFORM_C:picked=5/1000` (limit / window ms per scope). Unset: each
   * adapter's own (libs/platforms README). An unknown scope stops the start.
   */
  @IsOptional()
  @IsString()
  PLATFORM_CALL_BUDGETS?: string;

  /** A call slot booked in a platform's budget and claimed later than this is booked anew (a late call could crowd a later window). */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_CALL_BUDGET_LATE_MS must be an integer' })
  @Min(0)
  PLATFORM_CALL_BUDGET_LATE_MS: number = 500;

  /** How often each store's state is read back from platforms that let us (booked as availability:read; skipped when the budget has no room). */
  @ToNumber()
  @IsInt({ message: 'AVAILABILITY_READ_INTERVAL_MS must be an integer' })
  @Min(100)
  AVAILABILITY_READ_INTERVAL_MS: number = 300_000;

  /** How old an integration's last menu import may get before the schedule imports it again (booked as catalog:read); 0 turns the schedule off (imports on demand only). */
  @ToNumber()
  @IsInt({ message: 'CATALOG_IMPORT_INTERVAL_MS must be an integer' })
  @Min(0)
  CATALOG_IMPORT_INTERVAL_MS: number = 21_600_000;
}
