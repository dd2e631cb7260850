import { PlatformDefinition } from '../common/platform-definition';

/** PLATFORM_A: logs in with the integrator's app key and the restaurant's secretKey. */
export const PLATFORM_A: PlatformDefinition = {
  code: 'PLATFORM_A',
  title: 'Platform A',
  wireCodeVariable: 'PLATFORM_A_CODE',
  fields: [{ name: 'secretKey', secret: true, description: 'Restaurant secret key issued by the platform.', example: 'rs-3f9a0c2e7b1d4c55' }],
};
