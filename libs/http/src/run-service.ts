import { INestApplication, Type } from '@nestjs/common';
import { APP_CONFIG, ConfigurationError } from '@courier/config';
import { createHttpApp, HttpAppOptions } from './http-app';

export interface ServiceOptions<C> extends HttpAppOptions {
  /** Which config field holds the port this app listens on. */
  port: (config: C) => number;
  host?: string;
}

/** main.ts of every app: create, listen, and exit with a clear message when config is bad. */
export async function runService<C>(module: Type<unknown>, options: ServiceOptions<C>): Promise<INestApplication | undefined> {
  try {
    const app = await createHttpApp(module, options);
    const config = app.get<C>(APP_CONFIG);
    await app.listen(options.port(config), options.host ?? '0.0.0.0');
    return app;
  } catch (error) {
    reportStartupFailure(error);
    process.exitCode = 1;
    return undefined;
  }
}

export function reportStartupFailure(error: unknown): void {
  const root = findConfigurationError(error);
  if (root) {
    process.stderr.write(`${root.message}\n`);
  } else {
    process.stderr.write(`Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
}

function findConfigurationError(error: unknown): ConfigurationError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (current instanceof ConfigurationError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
