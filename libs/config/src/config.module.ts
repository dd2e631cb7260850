import { DynamicModule, Global, Module } from '@nestjs/common';
import { validateConfig } from './validate-config';
import { BaseConfig } from './base-config';

/** Injection token of the app's validated config object (an instance of the app's config class). */
export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * Validates the environment once, at module creation, against the app's config class and provides
 * it as APP_CONFIG (and as the class itself, so `constructor(private config: IntakeConfig)` works).
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot<T extends BaseConfig>(schema: new () => T, env?: Record<string, string | undefined>): DynamicModule {
    // Validated when the app is created (not when the module file is imported), so start-up
    // failures are reported by the launcher with the names of the bad variables.
    return {
      module: AppConfigModule,
      providers: [
        { provide: APP_CONFIG, useFactory: () => validateConfig(schema, env ?? process.env) },
        { provide: schema, useExisting: APP_CONFIG },
        { provide: BaseConfig, useExisting: APP_CONFIG },
      ],
      exports: [APP_CONFIG, schema, BaseConfig],
    };
  }
}
