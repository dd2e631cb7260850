import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateBy } from 'class-validator';
import { EmptyIsUnset, ToBoolean, ToNumber } from './transforms';
import { IsBoolean } from 'class-validator';
import { parseTrustProxy } from './trust-proxy';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * What a migration command needs, and nothing more: migrating a schema must not require the app's
 * keys and tokens (a migration Job or a first run by hand has only the database).
 */
export class MigrationConfig {
  /** PostgreSQL; each app uses its own schema. Required in the distributed mode; the one-machine launcher sets its embedded server. */
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL!: string;
}

/**
 * Variables every app reads. `DATABASE_URL` is required in the distributed mode; the one-machine
 * launcher sets it to its embedded server. `RABBITMQ_URL` unset selects the in-process transport.
 */
export class BaseConfig extends MigrationConfig {

  /** RabbitMQ (amqp:// or amqps://). Unset: the in-process transport (one-machine mode only). */
  @IsOptional()
  @Matches(/^amqps?:\/\/.+/, { message: 'RABBITMQ_URL must be an amqp:// or amqps:// URL' })
  RABBITMQ_URL?: string;

  /** Lowest pino level written. */
  @IsIn(LOG_LEVELS as unknown as string[], { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: string = 'info';

  /** Prefix of every exchange and queue name: lets several suites (or test runs) share one broker. */
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9-]{0,40}$/, { message: 'RABBITMQ_NAMESPACE must be lowercase letters, digits and dashes' })
  RABBITMQ_NAMESPACE?: string;

  /** Human-readable log lines instead of JSON (development). */
  @ToBoolean()
  @IsBoolean({ message: 'LOG_PRETTY must be true or false' })
  LOG_PRETTY: boolean = false;

  /** Run pending migrations at start (under an advisory lock). Off when a Kubernetes Job runs them. */
  @ToBoolean()
  @IsBoolean({ message: 'MIGRATIONS_RUN must be true or false' })
  MIGRATIONS_RUN: boolean = true;

  /** PostgreSQL connections of the app (connection budget: docs/operations.md). */
  @ToNumber()
  @IsInt({ message: 'DATABASE_POOL_SIZE must be an integer' })
  @Min(2)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /** Unacknowledged messages per consumer. */
  @ToNumber()
  @IsInt({ message: 'RABBITMQ_PREFETCH must be an integer' })
  @Min(1)
  @Max(1000)
  RABBITMQ_PREFETCH: number = 32;

  /** How often the outbox relay looks for rows it was not told about (other replicas' crashes). */
  @ToNumber()
  @IsInt({ message: 'OUTBOX_POLL_MS must be an integer' })
  @Min(10)
  OUTBOX_POLL_MS: number = 500;

  /** How often due scheduled tasks are looked for when nothing nudged the runner. */
  @ToNumber()
  @IsInt({ message: 'TASK_POLL_MS must be an integer' })
  @Min(10)
  TASK_POLL_MS: number = 500;

  /** Grace period for in-flight work on SIGTERM, in ms. */
  @ToNumber()
  @IsInt({ message: 'SHUTDOWN_GRACE_MS must be an integer' })
  @Min(0)
  SHUTDOWN_GRACE_MS: number = 10_000;

  /** This replica's name in the broker connection's name (the pod name in Kubernetes). */
  @IsOptional()
  @IsString()
  SERVICE_INSTANCE?: string;

  /** Shared rate-limit counters (all replicas of an app); unset: the app's PostgreSQL table holds them. */
  @EmptyIsUnset()
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Whose X-Forwarded-For the app believes for the client address (see parseTrustProxy). */
  @ValidateBy(
    { name: 'isTrustProxy', validator: { validate: (value: unknown) => parseTrustProxy(typeof value === 'string' ? value : undefined) !== undefined } },
    { message: 'TRUST_PROXY must be false, true, a number of proxy hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal' },
  )
  TRUST_PROXY: string = 'false';

  /** Longest a request may take to arrive in full (headers and body); a slow-drip client gets 408 and is cut. */
  @ToNumber()
  @IsInt({ message: 'HTTP_REQUEST_TIMEOUT_MS must be an integer' })
  @Min(100)
  HTTP_REQUEST_TIMEOUT_MS: number = 30_000;

  /** Longest the request headers may take to arrive (capped at HTTP_REQUEST_TIMEOUT_MS). */
  @ToNumber()
  @IsInt({ message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer' })
  @Min(100)
  HTTP_HEADERS_TIMEOUT_MS: number = 10_000;

  /**
   * How long an idle keep-alive connection stays open: longer than the 60 s a proxy in front
   * (ingress-nginx, cloud load balancers) keeps its idle upstream connections, so the proxy, not
   * the app, closes them and never sends a request on a connection the app is closing.
   */
  @ToNumber()
  @IsInt({ message: 'HTTP_KEEP_ALIVE_TIMEOUT_MS must be an integer' })
  @Min(0)
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number = 65_000;

  /** Serve the OpenAPI document and UI at /docs and /docs-json (unauthenticated; off in the production overlay). */
  @ToBoolean()
  @IsBoolean({ message: 'OPENAPI_DOCS_ENABLED must be true or false' })
  OPENAPI_DOCS_ENABLED: boolean = true;
}

/**
 * The config of an app with authenticated routes: failed authentication is throttled
 * (libs/rate-limit AuthFailures, called by every credential guard), per minute, in the shared counters.
 */
export class AuthThrottledConfig extends BaseConfig {
  /** Failed authentications a minute from one client address; past it that address's failed attempts get 429 (correct credentials still pass). */
  @ToNumber()
  @IsInt({ message: 'AUTH_FAILURE_LIMIT_PER_MINUTE must be a positive integer' })
  @Min(1, { message: 'AUTH_FAILURE_LIMIT_PER_MINUTE must be at least 1' })
  AUTH_FAILURE_LIMIT_PER_MINUTE: number = 20;

  /** Failed authentications a minute with one presented key id (X-API-Key), from any address. */
  @ToNumber()
  @IsInt({ message: 'AUTH_FAILURE_KEY_LIMIT_PER_MINUTE must be a positive integer' })
  @Min(1, { message: 'AUTH_FAILURE_KEY_LIMIT_PER_MINUTE must be at least 1' })
  AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: number = 50;
}
