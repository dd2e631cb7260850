import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

/** Thrown at start when the environment is missing or malformed; names every bad variable. */
export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigurationError';
  }
}

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((error) =>
    Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(error.property) ? message : `${error.property}: ${message}`,
    ),
  );
}

/**
 * Turns an environment (process.env) into a typed, validated config object. Unknown variables are
 * ignored; a missing or malformed one fails fast with a message that names it.
 */
export function validateConfig<T extends object>(
  schema: new () => T,
  env: Record<string, string | undefined> = process.env,
): T {
  const config = plainToInstance(schema, env, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigurationError(describe(errors));
  return config;
}
