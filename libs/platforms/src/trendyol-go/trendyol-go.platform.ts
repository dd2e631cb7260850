import { PLATFORM_C_SUPPLIER_ID } from './trendyol-go.assumptions';
import { PlatformDefinition } from '../common/platform-definition';
import { PLATFORM_C_CALL_BUDGET } from './trendyol-go.assumptions';

/** PLATFORM_C: HTTP Basic with apiKey:secretKey, supplier and store identifiers. */
export const PLATFORM_C: PlatformDefinition = {
  code: 'PLATFORM_C',
  title: 'Platform C',
  wireCodeVariable: 'PLATFORM_C_CODE',
  fields: [
    {
      name: 'supplierId',
      secret: false,
      description: 'Supplier identifier on the platform (sent in the User-Agent header): letters, digits, ".", "_" and "-" only.',
      maxLength: 64,
      // It goes into a header: a character a header cannot carry would break every call of the integration.
      pattern: { regex: PLATFORM_C_SUPPLIER_ID, message: 'must be 1-64 letters, digits, ".", "_" or "-" (it is sent in an HTTP header)' },
      sentInHeader: 'User-Agent',
      example: '104523',
    },
    // apiKey and secretKey travel base64-encoded (UTF-8) in Authorization: Basic, so any character survives: not header-bound.
    { name: 'apiKey', secret: true, description: 'Platform API key.', example: 'ak-8c1f2e9d0b7a' },
    { name: 'secretKey', secret: true, description: 'Platform API secret.', example: 'sk-5d0e4a7b2c9f' },
    { name: 'storeId', secret: false, description: 'Store identifier on the platform.', example: '88211' },
  ],
  callBudget: PLATFORM_C_CALL_BUDGET,
};
