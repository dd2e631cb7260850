import { getMetadataStorage, IsInt, Max, Min } from 'class-validator';
import { ConfigurationError, ToNumber, validateConfig } from '@courier/config';
import type { PlatformConfigClass } from './platform-entry';

/** What a platform's base URL variable must look like (each platform's client config uses it). */
export const PLATFORM_BASE_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

/**
 * The client settings every platform's adapter shares (every app that calls a platform validates
 * them at start). Each platform's own (base URL, keys, retry and accept windows) is the client
 * config class in its folder, named by its registry entry.
 */
export class PlatformHttpConfig {
  /** Timeout of one platform call (connect to last byte). */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_HTTP_TIMEOUT_MS must be an integer' })
  @Min(100)
  @Max(120_000)
  PLATFORM_HTTP_TIMEOUT_MS: number = 10_000;

  /** A session token is renewed this long before it expires. */
  @ToNumber()
  @IsInt({ message: 'PLATFORM_SESSION_REFRESH_MARGIN_MS must be an integer' })
  @Min(0)
  PLATFORM_SESSION_REFRESH_MARGIN_MS: number = 300_000;
}

/**
 * The shared client settings and every given platform's own, validated from `env` and combined in
 * one object; one ConfigurationError names every bad variable of all of them.
 */
export function validatePlatformClientConfig<T extends PlatformHttpConfig>(platforms: readonly { clientConfig?: PlatformConfigClass }[], env: Record<string, string | undefined> = process.env): T {
  const classes: PlatformConfigClass[] = [PlatformHttpConfig, ...platforms.flatMap((platform) => (platform.clientConfig ? [platform.clientConfig] : []))];
  const problems: string[] = [];
  const combined = {} as T;
  for (const schema of classes) {
    try {
      const config = validateConfig(schema, env) as Record<string, unknown>;
      // Only the variables the class declares: its instance also carries every other variable of env, unconverted.
      for (const name of declaredVariables(schema)) (combined as Record<string, unknown>)[name] = config[name];
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new ConfigurationError(problems);
  return combined;
}

function declaredVariables(schema: PlatformConfigClass): string[] {
  return [...new Set(getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false).map((entry) => entry.propertyName))];
}
