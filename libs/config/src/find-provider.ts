import type { INestApplicationContext, InjectionToken } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

/**
 * The app's instance of `token`, or undefined when no module of the app provides it. The module
 * container is asked first because a failed `app.get` is logged by Nest at error level before it
 * throws: catching it would leave an error line in every normal start.
 */
export function findProvider<T>(app: INestApplicationContext, token: InjectionToken): T | undefined {
  for (const module of app.get(ModulesContainer).values()) {
    if (module.hasProvider(token)) return app.get<T>(token, { strict: false });
  }
  return undefined;
}
