import { PlatformDefinition } from '../common/platform-definition';
import { PLATFORM_B_CALL_BUDGET } from './yemeksepeti.assumptions';

/** PLATFORM_B: user name and password per chain; vendors addressed by chainCode and providerRestaurantId. */
export const PLATFORM_B: PlatformDefinition = {
  code: 'PLATFORM_B',
  title: 'Platform B',
  wireCodeVariable: 'PLATFORM_B_CODE',
  fields: [
    { name: 'chainCode', secret: false, description: 'Chain code on the platform.', example: 'ch-4711' },
    { name: 'username', secret: false, description: 'Platform user name.', example: 'pos-integration' },
    { name: 'password', secret: true, description: 'Platform password.', example: 'correct-horse-battery' },
  ],
  callBudget: PLATFORM_B_CALL_BUDGET,
};
