import { PLATFORM_D_API_KEY_HEADER } from './migros-yemek.assumptions';
import { PlatformDefinition } from '../common/platform-definition';
import { PLATFORM_D_CALL_BUDGET } from './migros-yemek.assumptions';

/**
 * PLATFORM_D (Migros Yemek): providerRestaurantId is the Migros storeId, providerMerchantId its
 * storeGroupId, apiKey the store's XApiKey, encryptionMode (optional) how this store's bodies are
 * encrypted (migros-yemek.assumptions.ts, PLATFORM_D_CIPHER).
 */
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
    {
      name: 'encryptionMode',
      secret: false,
      optional: true,
      maxLength: 3,
      pattern: { regex: /^(ECB|CBC)$/, message: 'must be ECB or CBC' },
      description: 'Optional: how request bodies to this store are encrypted, ECB (AES-256-ECB, what Migros\' clients use) or CBC (AES-256-CBC with a zero IV). Absent: the deployment\'s PLATFORM_D_ENCRYPTION_MODE (default ECB).',
      example: 'ECB',
    },
  ],
  callBudget: PLATFORM_D_CALL_BUDGET,
};
