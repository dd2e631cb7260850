import type { Provider, Type } from '@nestjs/common';
import type { LocalSimulatorEntry } from './local-simulator';
import type { PlatformAdapter } from './platform-adapter';
import type { PlatformHttpConfig } from './platform-client.config';
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
  /** How the app's OpenAPI document describes its callbacks (the app collects every entry's). */
  openApi?: PlatformInboundOpenApi;
}

/** One platform's part of the OpenAPI document of the app that serves its callbacks. */
export interface PlatformInboundOpenApi {
  /** Its callbacks and how they authenticate, one phrase of the service description. */
  callbacks: string;
  /** API-key headers its callbacks present (each a security scheme named after the header). */
  apiKeyHeaders?: string[];
  /** A bearer JWT its callbacks present (the document's `bearerJwt` scheme). */
  bearerJwt?: { description: string };
  /** Answers its caller accepts under a path prefix (no other status is documented there). */
  restrictedAnswers?: Array<{ pathPrefix: string; statuses: readonly number[] }>;
}

/**
 * One platform as the suite registers it (platforms.ts holds one per platform): its definition
 * (codes, credential fields, rules), its client settings and how to build its adapter over them
 * (status out, credential check, polling), its inbound pieces (orders in), and how the one-machine
 * suite starts its simulator (loaded only then: the apps never load simulator code).
 */
export interface PlatformEntry<Client extends object = object> {
  definition: PlatformDefinition;
  /** The config class of its adapter's own variables (`<name>.client.config.ts`), validated with the shared PlatformHttpConfig. */
  clientConfig?: new () => Client;
  /**
   * Absent: the platform has no API of ours to call (THIRD_PARTY). Method syntax on purpose: an
   * entry typed over its own client settings is still a PlatformEntry of the registry's list.
   */
  adapter?(config: PlatformHttpConfig & Client, sessions: SessionCache): PlatformAdapter;
  inbound?: PlatformInbound;
  /** Its simulator with a demo restaurant, for the one-machine suite (local-platforms.ts starts every entry's). */
  simulator?: LocalSimulatorEntry;
}

/** A registry line, typed so that its adapter reads the settings of its own client config class. */
export function platformEntry<Client extends object = object>(entry: PlatformEntry<Client>): PlatformEntry<Client> {
  return entry;
}
