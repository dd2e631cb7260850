import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { LOG_LEVELS, ToBoolean, ToNumber, validateConfig } from '@courier/config';

/**
 * Environment of the reference receiver (see apps/mock-receiver/README.md). It has no database, so
 * this class does not extend BaseConfig (which requires DATABASE_URL).
 */
export class ReceiverConfig {
  /** HTTP port of the receiver (0: a free one). */
  @ToNumber()
  @IsInt({ message: 'PORT must be an integer port number' })
  @Min(0)
  @Max(65535)
  PORT: number = 4444;

  /** Address of the service's order intake ({base_url}). */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'SERVICE_API_URL must be an http(s) URL' })
  SERVICE_API_URL: string = 'http://localhost:3000';

  /** API key the receiver sends orders with; empty: taken from <LOCAL_DATA_DIR>/demo.json when it exists. */
  @IsString()
  SERVICE_API_KEY: string = '';

  /** Restaurant the orders are sent for (rest_...); empty: taken from demo.json when it exists. */
  @Matches(/^(rest_[A-Za-z0-9_-]+)?$/, { message: 'SERVICE_RESTAURANT_ID must start with rest_ (or be empty)' })
  SERVICE_RESTAURANT_ID: string = '';

  /**
   * Where the service's internal order transitions are (`{pos_url}` in the one-machine mode,
   * status-dispatcher's address otherwise). With SERVICE_INTERNAL_API_KEY the dashboard can move a
   * sent order through its life as the courier core does; unset, the page says what moves orders.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'SERVICE_INTERNAL_URL must be an http(s) URL' })
  SERVICE_INTERNAL_URL?: string;

  /** X-Internal-Api-Key for SERVICE_INTERNAL_URL. */
  @IsOptional()
  @IsString()
  SERVICE_INTERNAL_API_KEY?: string;

  /**
   * Host names (comma-separated `name` or `name:port`) the dashboard's actions may be sent to besides
   * localhost, 127.0.0.1 and [::1] on the receiver's port: the name of an ingress or a proxy in front.
   */
  @IsOptional()
  @Matches(/^\s*((\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?\s*(,\s*|$))*$/, { message: 'RECEIVER_ALLOWED_HOSTS must be comma-separated host names, each optionally with :port' })
  RECEIVER_ALLOWED_HOSTS?: string;

  /** Empty: signatures are shown but not enforced. */
  @IsString()
  WEBHOOK_SECRET: string = '';

  /** Directory of demo.json and of the state file. */
  @IsString()
  LOCAL_DATA_DIR: string = '.local';

  /** Where the receiver keeps its state; default `<LOCAL_DATA_DIR>/receiver-state.json`. */
  @IsOptional()
  @IsString()
  RECEIVER_DATA_FILE?: string;

  /** How many sent orders and received webhooks are kept (newest first). */
  @ToNumber()
  @IsInt({ message: 'RECEIVER_HISTORY_LIMIT must be an integer' })
  @Min(1)
  @Max(100_000)
  RECEIVER_HISTORY_LIMIT: number = 500;

  /** Timeout of the call to the intake endpoint. */
  @ToNumber()
  @IsInt({ message: 'SERVICE_TIMEOUT_MS must be an integer' })
  @Min(100)
  @Max(120_000)
  SERVICE_TIMEOUT_MS: number = 10_000;

  /** Lowest pino level written. */
  @IsIn(LOG_LEVELS as unknown as string[], { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: string = 'info';

  /** Human-readable log lines instead of JSON (development). */
  @ToBoolean()
  @IsBoolean({ message: 'LOG_PRETTY must be true or false' })
  LOG_PRETTY: boolean = false;
}

/** Where the state file lives for this configuration. */
export function resolveDataFile(config: Pick<ReceiverConfig, 'RECEIVER_DATA_FILE' | 'LOCAL_DATA_DIR'>): string {
  return path.resolve(config.RECEIVER_DATA_FILE || path.join(config.LOCAL_DATA_DIR || '.local', 'receiver-state.json'));
}

/**
 * Validates a configuration given as environment strings or as already typed values (what an
 * in-process launcher passes); fills the defaults; throws ConfigurationError naming bad variables.
 */
export function normaliseReceiverConfig(values: Partial<ReceiverConfig> | Record<string, unknown>): ReceiverConfig {
  const plain: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) plain[name] = typeof value === 'string' ? value : String(value);
  }
  return validateConfig(ReceiverConfig, plain);
}

/** Credentials the one-machine launcher writes to `<LOCAL_DATA_DIR>/demo.json` (keys read leniently). */
interface DemoCredentials {
  restaurantId?: string;
  apiKey?: string;
  webhookSecret?: string;
  posUrl?: string;
  internalApiKey?: string;
}

function readDemoCredentials(file: string): DemoCredentials | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const nested = typeof parsed.restaurant === 'object' && parsed.restaurant !== null ? (parsed.restaurant as Record<string, unknown>) : {};
    const pick = (...names: string[]) => {
      for (const name of names) {
        const value = parsed[name] ?? nested[name];
        if (typeof value === 'string' && value.length > 0) return value;
      }
      return undefined;
    };
    return {
      restaurantId: pick('restaurantId'),
      apiKey: pick('apiKey'),
      webhookSecret: pick('webhookSecret', 'signingSecret', 'webhookSigningSecret'),
      posUrl: pick('posUrl'),
      internalApiKey: pick('internalApiKey'),
    };
  } catch {
    return undefined;
  }
}

/**
 * The receiver's configuration from the environment. SERVICE_RESTAURANT_ID, SERVICE_API_KEY,
 * WEBHOOK_SECRET and SERVICE_INTERNAL_URL / SERVICE_INTERNAL_API_KEY that are not set are taken from the demo restaurant in
 * `<LOCAL_DATA_DIR>/demo.json` when that file exists, so that next to the one-machine suite the
 * receiver needs no set-up.
 */
export function loadReceiverConfig(env: Record<string, string | undefined> = process.env): ReceiverConfig {
  const config = validateConfig(ReceiverConfig, env);
  const demo = readDemoCredentials(path.resolve(config.LOCAL_DATA_DIR, 'demo.json'));
  if (demo) {
    if (!env.SERVICE_RESTAURANT_ID && demo.restaurantId) config.SERVICE_RESTAURANT_ID = demo.restaurantId;
    if (!env.SERVICE_API_KEY && demo.apiKey) config.SERVICE_API_KEY = demo.apiKey;
    if (env.WEBHOOK_SECRET === undefined && demo.webhookSecret) config.WEBHOOK_SECRET = demo.webhookSecret;
    if (!env.SERVICE_INTERNAL_URL && !env.SERVICE_INTERNAL_API_KEY && demo.posUrl && demo.internalApiKey) {
      config.SERVICE_INTERNAL_URL = demo.posUrl;
      config.SERVICE_INTERNAL_API_KEY = demo.internalApiKey;
    }
  }
  return normaliseReceiverConfig(config);
}

/** `****` + the last 4 characters (nothing of short secrets); empty stays empty. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return secret.length >= 12 ? `****${secret.slice(-4)}` : '****';
}
