import { IntegrationEntity } from '../integrations/integration.entity';
import { INITIAL_VERIFICATION, resetVerification, verificationStateOf } from './integration-verification.service';

describe('verification decisions', () => {
  it.each([
    ['ok', 'verified'],
    ['not_applicable', 'verified'],
    ['wrong_restaurant', 'failed'],
    ['rejected', 'failed'],
    ['unreachable', 'unverified'],
    ['not_configured', 'unverified'],
  ] as const)('a check answering %s leaves the integration %s', (result, state) => {
    expect(verificationStateOf(result)).toBe(state);
  });

  const now = new Date('2026-01-02T03:04:05.000Z');
  const integration = (platform: string): IntegrationEntity =>
    ({
      platform,
      ...INITIAL_VERIFICATION(platform, now),
      verificationState: 'verified',
      verificationVerifiedAt: now,
      verificationFingerprint: 'fp',
      posReadyFingerprint: 'fp',
    }) as IntegrationEntity;

  it('a change makes a platform integration unverified (and its POS to be announced again); THIRD_PARTY stays verified', () => {
    const changed = integration('PLATFORM_A');
    resetVerification(changed, now, 'changed');
    expect(changed).toMatchObject({ verificationState: 'unverified', verificationVerifiedAt: null, verificationFingerprint: null, posReadyFingerprint: null, verificationDetail: 'changed', verificationAttemptedAt: now });
    const thirdParty = integration('THIRD_PARTY');
    resetVerification(thirdParty, now, 'changed');
    expect(thirdParty.verificationState).toBe('verified');
    expect(INITIAL_VERIFICATION('THIRD_PARTY', now)).toMatchObject({ verificationState: 'verified', verificationVerifiedAt: now });
    expect(INITIAL_VERIFICATION('PLATFORM_D', now)).toMatchObject({ verificationState: 'unverified', verificationVerifiedAt: null });
  });
});
