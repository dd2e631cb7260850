import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { validateConfig } from '@courier/config';
import type { PlatformEntry } from './platform-entry';

export interface PlatformInboundOptions {
  /** The registered platforms (platforms.ts's PLATFORMS, or more in a test). */
  platforms: readonly PlatformEntry[];
  /** Modules that provide PlatformOrderIntake and PlatformAdapters (the app's). */
  imports: NonNullable<ModuleMetadata['imports']>;
  /** Where the platforms' config classes are read from (default process.env, as the client configs). */
  env?: Record<string, string | undefined>;
}

/**
 * Every registered platform's inbound pieces (controllers, guards, pollers) in one module, over the
 * PlatformOrderIntake port the app provides: the way one module collects every data provider behind
 * one token. A platform added to the registry is served without a change here or in the app.
 */
@Module({})
export class PlatformInboundModule {
  static register(options: PlatformInboundOptions): DynamicModule {
    const inbound = options.platforms.flatMap((platform) => (platform.inbound ? [platform.inbound] : []));
    const configs = inbound.flatMap((pieces) => pieces.configs ?? []).map((config) => ({ provide: config, useFactory: () => validateConfig(config, options.env ?? process.env) }));
    return {
      module: PlatformInboundModule,
      imports: options.imports,
      controllers: inbound.flatMap((pieces) => pieces.controllers ?? []),
      providers: [...configs, ...inbound.flatMap((pieces) => pieces.providers ?? [])],
    };
  }
}
