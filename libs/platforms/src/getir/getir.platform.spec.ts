import { statusPushRulesOf } from '../platforms';
import { PLATFORM_A } from './getir.platform';

describe('PLATFORM_A (Getir) definition', () => {
  it('gives the status-push guards its PREPARE hold, read by code and by nothing else', () => {
    expect(PLATFORM_A.statusRules).toEqual({ holdsPrepareAfterApproval: true });
    expect(statusPushRulesOf('PLATFORM_A')).toEqual({ holdsPrepareAfterApproval: true });
    expect(statusPushRulesOf('platform_a')).toEqual({});
    for (const code of ['PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D', 'THIRD_PARTY']) expect(statusPushRulesOf(code)).toEqual({});
  });

  it('spaces verify, prepare and deliver, and books its calls in its budget', () => {
    expect(PLATFORM_A.spacedSteps).toEqual(['VERIFY', 'PREPARE', 'DELIVER']);
    expect(PLATFORM_A.callBudget).toBeDefined();
  });
});
