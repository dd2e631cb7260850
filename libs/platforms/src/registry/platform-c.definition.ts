import { PlatformDefinition } from './platform-definition';

/** PLATFORM_C: HTTP Basic with apiKey:secretKey, supplier and store identifiers. */
export const PLATFORM_C: PlatformDefinition = {
  code: 'PLATFORM_C',
  title: 'Platform C',
  wireCodeVariable: 'PLATFORM_C_CODE',
  fields: [
    { name: 'supplierId', secret: false, description: 'Supplier identifier on the platform.', example: '104523' },
    { name: 'apiKey', secret: true, description: 'Platform API key.', example: 'ak-8c1f2e9d0b7a' },
    { name: 'secretKey', secret: true, description: 'Platform API secret.', example: 'sk-5d0e4a7b2c9f' },
    { name: 'storeId', secret: false, description: 'Store identifier on the platform.', example: '88211' },
  ],
};
