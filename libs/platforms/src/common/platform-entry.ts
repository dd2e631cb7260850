import type { Provider, Type } from '@nestjs/common';
import type { PlatformAdapter } from './platform-adapter';
import type { PlatformClientConfig } from './platform-client.config';
import type { PlatformDefinition } from './platform-definition';
import type { SessionCache } from './session-cache';

/** A config class a platform's pieces read, validated from the environment at start. */
export type PlatformConfigClass = new () => object;

/**
 * How a platform's orders come in: its Nest controllers (webhooks, plugin endpoints), its providers
 * (guards, pollers) and the config classes they read. They reach the app through the
 * PlatformOrderIntake port only.
 */
export interface PlatformInbound {
  controllers?: Type<unknown>[];
  providers?: Provider[];
  configs?: PlatformConfigClass[];
}

/**
 * One platform as the suite registers it (platforms.ts holds one per platform): its definition
 * (codes, credential fields, rules), how to build its adapter (status out, credential check,
 * polling), and its inbound pieces (orders in). Its simulator stays in its folder, for tests and
 * the one-machine mode only.
 */
export interface PlatformEntry {
  definition: PlatformDefinition;
  /** Absent: the platform has no API of ours to call (THIRD_PARTY). */
  adapter?: (config: PlatformClientConfig, sessions: SessionCache) => PlatformAdapter;
  inbound?: PlatformInbound;
}
