import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsInt, Matches, Max, Min, ValidateBy, ValidationOptions } from 'class-validator';
import { AuthThrottledConfig, parseDuration, ToBoolean, ToNumber, IsOriginList, ToList } from '@courier/config';
import { parseEncryptionKeys } from '@courier/crypto';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A duration variable ("1m", "4h", "3d", "250ms"): the value becomes milliseconds, NaN when malformed. */
const ToDuration = () => Transform(({ value }) => (value === undefined || value === '' ? undefined : typeof value === 'number' ? value : parseDuration(String(value))));

/** A comma-separated list of durations -> milliseconds (NaN for a malformed entry). */
const ToDurationList = () =>
  Transform(({ value }) =>
    value === undefined || value === ''
      ? undefined
      : Array.isArray(value)
        ? value
        : String(value)
            .split(',')
            .map((entry) => parseDuration(entry)),
  );

function IsPositiveDuration(variable: string, options?: ValidationOptions) {
  return ValidateBy(
    { name: 'isPositiveDuration', validator: { validate: (value: unknown) => Number.isFinite(value) && (value as number) > 0, defaultMessage: () => `${variable} must be a duration such as 250ms, 30s, 1m, 4h or 3d` } },
    options,
  );
}

/** Valid when the key list parses; the message is the parser's (it names the variable, never key material). */
function IsEncryptionKeyList() {
  const problem = (value: unknown): string | undefined => {
    try {
      parseEncryptionKeys(typeof value === 'string' ? value : undefined, 'SECRETS_ENCRYPTION_KEYS');
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return ValidateBy({ name: 'isEncryptionKeyList', validator: { validate: (value: unknown) => problem(value) === undefined, defaultMessage: (args) => problem(args?.value) ?? '' } });
}

/** Environment of webhook-sender (see README, "Configuration"). Durations are held in milliseconds. */
export class WebhookSenderConfig extends AuthThrottledConfig {
  /** HTTP port of the delivery log and redelivery API. */
  @ToNumber()
  @IsInt({ message: 'WEBHOOK_SENDER_PORT must be an integer port number' })
  @Min(1)
  @Max(65535)
  WEBHOOK_SENDER_PORT: number = 3003;

  /** `keyId:base64key,...`: opens the signing-secret ciphertexts of the account events. */
  @IsEncryptionKeyList()
  SECRETS_ENCRYPTION_KEYS!: string;

  /** Development only: receivers may be plain http and on private, loopback or link-local addresses. */
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

  /** Redeliveries an account may ask for in a minute (each is an outbound request at once), shared by the replicas. */
  @ToNumber()
  @IsInt({ message: 'WEBHOOK_REDELIVER_LIMIT_PER_MINUTE must be a positive integer' })
  @Min(1, { message: 'WEBHOOK_REDELIVER_LIMIT_PER_MINUTE must be at least 1' })
  WEBHOOK_REDELIVER_LIMIT_PER_MINUTE: number = 10;

  /** The whole exchange (resolution, connection, TLS, request, response headers), in ms. */
  @ToNumber()
  @IsInt({ message: 'WEBHOOK_TIMEOUT_MS must be an integer number of milliseconds' })
  @Min(10)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS: number = 5_000;

  /** Delays after the 1st, 2nd, ... failed attempt; the last one repeats. Variable: `1m,5m,15m,1h,4h,24h`. */
  @ToDurationList()
  @ArrayMinSize(1, { message: 'WEBHOOK_RETRY_SCHEDULE must list at least one duration' })
  @ArrayMaxSize(50)
  @IsPositiveDuration('WEBHOOK_RETRY_SCHEDULE (every entry)', { each: true })
  WEBHOOK_RETRY_SCHEDULE: number[] = [1 * MINUTE, 5 * MINUTE, 15 * MINUTE, 1 * HOUR, 4 * HOUR, 24 * HOUR];

  /** Failing for this long (since the delivery, or its redelivery, began) raises the alert. Variable: `24h`. */
  @ToDuration()
  @IsPositiveDuration('WEBHOOK_ALERT_AFTER')
  WEBHOOK_ALERT_AFTER: number = 24 * HOUR;

  /** Failing for this long marks the delivery failed (no more attempts). Variable: `3d`. */
  @ToDuration()
  @IsPositiveDuration('WEBHOOK_MAX_AGE')
  WEBHOOK_MAX_AGE: number = 3 * DAY;

  /**
   * Finished deliveries (delivered, failed, skipped) and their attempts are deleted once created and
   * last changed this long ago; open ones never. The delivery log and redelivery reach back this far.
   * Variable: `30d`.
   */
  @ToDuration()
  @IsPositiveDuration('WEBHOOK_RETENTION')
  WEBHOOK_RETENTION: number = 30 * DAY;

  /** Name of the hex HMAC header (decisions.md: the service's brand goes into it). */
  @Matches(/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/, { message: 'WEBHOOK_SIGNATURE_HEADER must be an HTTP header name (letters, digits, dashes)' })
  WEBHOOK_SIGNATURE_HEADER: string = 'X-Service-Signature';

  /** Requests in flight to one receiver host (host:port) from this process. */
  @ToNumber()
  @IsInt({ message: 'WEBHOOK_MAX_CONCURRENCY_PER_HOST must be an integer' })
  @Min(1)
  @Max(256)
  WEBHOOK_MAX_CONCURRENCY_PER_HOST: number = 4;

  /** Deliveries this process works on at once, all hosts together (slots of its delivery runner). */
  @ToNumber()
  @IsInt({ message: 'WEBHOOK_CONCURRENCY must be an integer' })
  @Min(1)
  @Max(1024)
  WEBHOOK_CONCURRENCY: number = 64;

  /**
   * Connections of the delivery pump's own pool (leases and results, written with
   * synchronous_commit off), on top of DATABASE_POOL_SIZE. Counts in the connection budget (docs/operations.md).
   */
  @ToNumber()
  @IsInt({ message: 'WEBHOOK_PUMP_POOL_SIZE must be an integer' })
  @Min(1)
  @Max(50)
  WEBHOOK_PUMP_POOL_SIZE: number = 4;
}
