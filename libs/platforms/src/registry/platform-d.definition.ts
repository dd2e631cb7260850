import { PlatformDefinition } from './platform-definition';

/** PLATFORM_D: the merchant's apiKey. */
export const PLATFORM_D: PlatformDefinition = {
  code: 'PLATFORM_D',
  title: 'Platform D',
  wireCodeVariable: 'PLATFORM_D_CODE',
  fields: [
    { name: 'providerMerchantId', secret: false, description: 'Merchant identifier on the platform.', example: 'm-20931' },
    { name: 'apiKey', secret: true, description: 'Merchant API key.', example: 'mk-1a2b3c4d5e6f' },
  ],
};
