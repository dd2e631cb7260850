import { DynamicModule, Global, Module } from '@nestjs/common';
import type { PlatformEntry } from './platform-entry';

/** The platforms an app runs with (platforms.ts's PLATFORMS; a test may add one). */
export const REGISTERED_PLATFORMS = Symbol('REGISTERED_PLATFORMS');

/** Provides REGISTERED_PLATFORMS to every module of the app (its adapters and registry are built from it). */
@Global()
@Module({})
export class RegisteredPlatformsModule {
  static forRoot(platforms: readonly PlatformEntry[]): DynamicModule {
    return { module: RegisteredPlatformsModule, global: true, providers: [{ provide: REGISTERED_PLATFORMS, useValue: platforms }], exports: [REGISTERED_PLATFORMS] };
  }
}
