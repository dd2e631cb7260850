import { PLATFORM_D_API_KEY_HEADER } from '../adapters/platform-d/platform-d.assumptions';
import { PlatformDefinition } from './platform-definition';

/** PLATFORM_D (Migros Yemek): providerRestaurantId is the Migros storeId, providerMerchantId its storeGroupId, apiKey the store's XApiKey. */
export const PLATFORM_D: PlatformDefinition = {
  code: 'PLATFORM_D',
  title: 'Platform D',
  wireCodeVariable: 'PLATFORM_D_CODE',
  fields: [
    { name: 'providerMerchantId', secret: false, description: 'The store group (chain) id on the platform (Migros storeGroupId).', example: '511' },
    {
      name: 'apiKey',
      secret: true,
      description:
        'The store\'s API key (sent as XApiKey, so visible ASCII only, spaces only inside; it also encrypts request bodies unless the deployment sets PLATFORM_D_SECRET_KEY).',
      sentInHeader: PLATFORM_D_API_KEY_HEADER,
      example: 'mk-1a2b3c4d5e6f',
    },
  ],
};
