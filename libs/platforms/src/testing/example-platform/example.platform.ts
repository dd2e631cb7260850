import type { PlatformDefinition } from '../../common/platform-definition';

/** A fifth platform that lives only in this folder: proof that a platform is one folder and one registry line. */
export const EXAMPLE_PLATFORM: PlatformDefinition = {
  code: 'PLATFORM_EXAMPLE',
  title: 'Example platform (tests only)',
  fields: [{ name: 'apiKey', secret: true, description: 'The store\'s key on the example platform.', example: 'ex-key-0000000001' }],
};
