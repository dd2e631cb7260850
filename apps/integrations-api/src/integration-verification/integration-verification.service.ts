import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { IntegrationVerificationState } from '@courier/contracts';
import { SecretBox, secretBinding, SecretDecryptionError } from '@courier/crypto';
import { Lane, UnitOfWork } from '@courier/messaging';
import { CredentialCheck, CredentialCheckResult, IntegrationCredentials, PlatformAdapters, PlatformRegistry, THIRD_PARTY_CODE } from '@courier/platforms';
import { IntegrationsConfig } from '../app/integrations-api.config';
import { IntegrationEntity } from '../integrations/integration.entity';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { IntegrationFingerprints } from './integration-fingerprints';

/** The periodic retry's name in the SchedulerRegistry. */
export const VERIFICATION_RETRY = 'integration-verification-retry';

/** Background checks at once, and waiting for a slot, at most (past them the periodic retry catches up). */
const CHECKS_AT_ONCE = 8;
const CHECKS_IN_LINE = 1_000;

/** A check's verdict as a verification state; 'unverified' means no verdict (unreachable, a setting missing): the state stays as it was, retried while unverified. */
export function verificationStateOf(result: CredentialCheckResult | 'not_applicable'): IntegrationVerificationState {
  switch (result) {
    case 'ok':
    case 'not_applicable':
      return 'verified';
    case 'rejected':
    case 'wrong_restaurant':
      return 'failed';
    case 'unreachable':
    case 'not_configured':
      return 'unverified';
  }
}

/** What a verification found, and the integration as it is stored after it. */
export interface VerificationOutcome {
  check: Omit<CredentialCheck, 'result'> & { result: CredentialCheckResult | 'not_applicable' };
  integration: IntegrationEntity;
}

/** The verification columns of a new integration: THIRD_PARTY (the customer's own label) is verified from the start. */
export function INITIAL_VERIFICATION(platform: string, now: Date): Pick<
  IntegrationEntity,
  'verificationState' | 'verificationVerifiedAt' | 'verificationDetail' | 'verificationFingerprint' | 'verificationAttemptedAt' | 'posReadyFingerprint'
> {
  const thirdParty = platform === THIRD_PARTY_CODE;
  return {
    verificationState: thirdParty ? 'verified' : 'unverified',
    verificationVerifiedAt: thirdParty ? now : null,
    verificationDetail: thirdParty ? 'THIRD_PARTY needs no platform verification.' : null,
    verificationFingerprint: null,
    verificationAttemptedAt: null,
    posReadyFingerprint: null,
  };
}

/** The verification a changed or new integration starts with. */
export function resetVerification(integration: IntegrationEntity, now: Date, detail: string): void {
  if (integration.platform === THIRD_PARTY_CODE) return;
  integration.verificationState = 'unverified';
  integration.verificationVerifiedAt = null;
  integration.verificationDetail = detail;
  integration.verificationFingerprint = null;
  // The check starts right after the commit: the periodic retry leaves it a period.
  integration.verificationAttemptedAt = now;
  integration.posReadyFingerprint = null;
}

/**
 * Verifies platform integrations: the adapter's credential check (a real login, or a harmless read
 * whose answer names the store) decides whether the platform accepts the credentials for the
 * integration's providerRestaurantId. A change of state is a new version of the integration and an
 * integration.upserted event (the dispatcher hands orders only to verified integrations). A verdict
 * is stored only if the credentials are still the ones checked. Runs right after a change commits
 * (in-process, best effort) and periodically for the unverified ones; once verified (or activated
 * while verified) a platform that opens integrations closed is told they are ready (the adapter's announcePosReady).
 */
@Injectable()
export class IntegrationVerificationService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('IntegrationVerification');
  /**
   * The work started after a commit and by the periodic retry, run in the background: its durable
   * path is the stored state itself (unverified, or owed a POS announcement), which the periodic
   * retry reads, so work the lane cannot take is simply left to it.
   */
  private readonly background = new Lane<() => Promise<unknown>>({
    concurrency: CHECKS_AT_ONCE,
    lineLimit: CHECKS_IN_LINE,
    run: (work) => work().then(
      () => undefined,
      (error: unknown) => this.logger.error({ reason: (error as Error).message }, 'integration verification failed'),
    ),
  });

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly adapters: PlatformAdapters,
    private readonly registry: PlatformRegistry,
    private readonly secretBox: SecretBox,
    private readonly fingerprints: IntegrationFingerprints,
    private readonly config: IntegrationsConfig,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onModuleInit(): void {
    const interval = setInterval(() => this.background.offer(() => this.retryDue()), this.config.INTEGRATION_VERIFICATION_RETRY_MS);
    interval.unref();
    this.scheduler.addInterval(VERIFICATION_RETRY, interval);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.scheduler.doesExist('interval', VERIFICATION_RETRY)) this.scheduler.deleteInterval(VERIFICATION_RETRY);
    await this.background.drain();
  }

  /** After a commit: verify the integration in the background (a failure is logged; the periodic retry catches up). */
  verifySoon(integrationId: string): void {
    this.background.offer(() => this.verify(integrationId));
  }

  /** After an activation: tell the platform the integration is ready, if it is verified and the platform wants to hear it. */
  announceSoon(integrationId: string): void {
    this.background.offer(() => this.announcePosReady(integrationId));
  }

  /** Checks the integration's stored credentials with its platform and stores the verdict. */
  async verify(integrationId: string): Promise<VerificationOutcome | undefined> {
    const integration = await this.integrations.findById(integrationId);
    if (!integration) return undefined;
    return this.verifyIntegration(integration);
  }

  async verifyIntegration(integration: IntegrationEntity): Promise<VerificationOutcome> {
    const adapter = this.adapters.get(integration.platform);
    if (!adapter) return { integration, check: { result: 'not_applicable', detail: `${this.registry.wireCodeOf(integration.platform)} has no platform credentials to check.` } };
    const credentials = this.open(integration);
    if (!credentials) {
      const check = { result: 'not_configured' as const, detail: 'The stored secrets cannot be decrypted with SECRETS_ENCRYPTION_KEYS (a key is missing): send them again with PUT.' };
      return { check, integration };
    }
    const fingerprint = this.fingerprints.of(integration.platform, credentials);
    const check = await adapter.checkCredentials(credentials);
    const stored = await this.store(integration.id, fingerprint, check);
    this.logger.log(
      { integrationId: integration.id, platform: integration.platform, result: check.result, httpStatus: check.httpStatus, state: stored?.verificationState, stale: stored === undefined },
      'integration verification',
    );
    // In the background: a slow platform answer must not hold the check's HTTP answer.
    if (stored?.verificationState === 'verified') this.announceSoon(stored.id);
    return { check, integration: stored ?? integration };
  }

  /** The periodic work: unverified integrations not tried for a period, and POS announcements still owed. */
  async retryDue(): Promise<void> {
    if (this.background.draining) return;
    const batch = this.config.INTEGRATION_VERIFICATION_BATCH;
    const due = await this.integrations.claimUnverified(batch, this.config.INTEGRATION_VERIFICATION_RETRY_MS);
    for (const id of due) {
      if (this.background.draining) return;
      await this.verify(id).catch((error: unknown) => this.logger.error({ integrationId: id, reason: (error as Error).message }, 'integration verification failed'));
    }
    const announcing = this.registry
      .list()
      .map((platform) => platform.code)
      .filter((code) => this.adapters.get(code)?.announcePosReady !== undefined);
    for (const id of await this.integrations.awaitingPosReady(announcing, batch)) {
      if (this.background.draining) return;
      await this.announcePosReady(id);
    }
  }

  /** Tells the platform a verified, active integration takes orders (once per set of credentials; a failure is retried periodically). */
  async announcePosReady(integrationId: string): Promise<void> {
    const integration = await this.integrations.findById(integrationId);
    if (!integration || !integration.isActive || integration.displacedAt !== null || integration.verificationState !== 'verified') return;
    const adapter = this.adapters.get(integration.platform);
    if (!adapter?.announcePosReady) return;
    const credentials = this.open(integration);
    if (!credentials) return;
    const fingerprint = this.fingerprints.of(integration.platform, credentials);
    if (integration.posReadyFingerprint === fingerprint || integration.verificationFingerprint !== fingerprint) return;
    const outcome = await adapter.announcePosReady(credentials);
    if (outcome.ok) {
      await this.integrations.markPosReady(integration.id, fingerprint);
      this.logger.log({ integrationId: integration.id, platform: integration.platform, detail: outcome.detail }, 'platform told the integration is ready');
      return;
    }
    // Never blocks the verification: the periodic retry tries again.
    this.logger.warn({ integrationId: integration.id, platform: integration.platform, detail: outcome.detail, httpStatus: outcome.httpStatus, retry: outcome.retry }, 'platform could not be told the integration is ready');
  }

  /** Stores a verdict on the credentials with this fingerprint; undefined when they changed meanwhile (their own verification decides). */
  private store(integrationId: string, fingerprint: string, check: CredentialCheck): Promise<IntegrationEntity | undefined> {
    return this.unitOfWork.run(async (tx) => {
      const current = await this.integrations.lockById(tx, integrationId);
      if (!current) return undefined;
      const credentials = this.open(current);
      if (!credentials || this.fingerprints.of(current.platform, credentials) !== fingerprint) return undefined;
      const now = new Date();
      // No verdict (unreachable, a setting missing) changes no state: a verified integration stays verified.
      const verdict = verificationStateOf(check.result);
      const state = verdict === 'unverified' ? current.verificationState : verdict;
      current.verificationDetail = check.detail.slice(0, 500);
      current.verificationFingerprint = fingerprint;
      current.verificationAttemptedAt = now;
      if (verdict === 'verified') current.verificationVerifiedAt = now;
      if (state === current.verificationState) {
        await this.integrations.storeVerificationAttempt(tx, current);
        return current;
      }
      current.verificationState = state;
      if (state !== 'verified') current.verificationVerifiedAt = null;
      await this.integrations.storeChange(tx, current, now);
      return current;
    });
  }

  private open(integration: IntegrationEntity): IntegrationCredentials | undefined {
    try {
      return {
        integrationId: integration.id,
        providerRestaurantId: integration.providerRestaurantId,
        settings: integration.settings,
        secrets: Object.fromEntries(Object.entries(integration.secrets).map(([field, ciphertext]) => [field, this.secretBox.decrypt(ciphertext, secretBinding.integrationSecret(integration.id, field))])),
      };
    } catch (error) {
      if (error instanceof SecretDecryptionError) return undefined;
      throw error;
    }
  }
}
