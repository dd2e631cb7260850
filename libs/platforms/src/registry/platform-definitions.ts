import { PLATFORM_A } from './platform-a.definition';
import { PLATFORM_B } from './platform-b.definition';
import { PLATFORM_C } from './platform-c.definition';
import { PLATFORM_D } from './platform-d.definition';
import { PlatformDefinition } from './platform-definition';
import { THIRD_PARTY } from './third-party.definition';

/** Every registered platform. A new platform is one definition file and one entry here. */
export const PLATFORM_DEFINITIONS: readonly PlatformDefinition[] = [PLATFORM_A, PLATFORM_B, PLATFORM_C, PLATFORM_D, THIRD_PARTY];
