import type { PlatformEntry } from '../../common/platform-entry';
import { ExamplePlatformAdapter } from './example.adapter';
import { ExamplePlatformController } from './example.controller';
import { EXAMPLE_PLATFORM } from './example.platform';

/** The example platform's registry line, its API at `baseUrl` (its simulator's). */
export function examplePlatform(baseUrl: string): PlatformEntry {
  return {
    definition: EXAMPLE_PLATFORM,
    adapter: (config) => new ExamplePlatformAdapter(baseUrl, config.PLATFORM_HTTP_TIMEOUT_MS),
    inbound: { controllers: [ExamplePlatformController] },
  };
}
