import { PlatformDefinition } from '../common/platform-definition';
import { PLATFORM_A_CALL_BUDGET, PLATFORM_A_SPACED_ACTIONS } from './getir.assumptions';

/** PLATFORM_A: logs in with the integrator's app key and the restaurant's secretKey. */
export const PLATFORM_A: PlatformDefinition = {
  code: 'PLATFORM_A',
  title: 'Platform A',
  wireCodeVariable: 'PLATFORM_A_CODE',
  fields: [{ name: 'secretKey', secret: true, description: 'Restaurant secret key issued by the platform.', example: 'rs-3f9a0c2e7b1d4c55' }],
  // Getir refuses a step sooner than a minute after the previous one: PREPARE waits after approval.
  statusRules: { holdsPrepareAfterApproval: true },
  spacedSteps: PLATFORM_A_SPACED_ACTIONS,
  callBudget: PLATFORM_A_CALL_BUDGET,
};
