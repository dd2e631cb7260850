import { Module } from '@nestjs/common';
import { SecretBox } from '@courier/crypto';
import { PlatformAdapters, PlatformEntry, validatePlatformClientConfig, PlatformRegistry, REGISTERED_PLATFORMS } from '@courier/platforms';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { CredentialFingerprints } from './credential-fingerprints';
import { IntegrationDirectory } from './integration-directory';
import { PlatformCallBudgetRepository } from './platform-call-budget.repository';
import { PlatformCallBudgets } from './platform-call-budgets';
import { PlatformSessionRepository } from './platform-session.repository';
import { PostgresSessionStore } from './platform-session.store';

/** Room for a login's request before another replica may take the login over. */
const LOGIN_LEASE_MARGIN_MS = 5_000;

/**
 * What every platform call needs: the adapters (PLATFORM_*_BASE_URL ..., validated at start) with
 * their sessions shared by the replicas (PostgresSessionStore), the call budgets, the registry of wire
 * codes, and the integrations with their credentials.
 */
@Module({
  imports: [AccountDirectoryModule],
  providers: [
    { provide: SecretBox, inject: [DispatcherConfig], useFactory: (config: DispatcherConfig) => SecretBox.fromKeyList(config.SECRETS_ENCRYPTION_KEYS) },
    { provide: CredentialFingerprints, inject: [DispatcherConfig], useFactory: (config: DispatcherConfig) => new CredentialFingerprints(config.SECRETS_ENCRYPTION_KEYS) },
    {
      provide: PlatformAdapters,
      inject: [PlatformSessionRepository, SecretBox, CredentialFingerprints, REGISTERED_PLATFORMS],
      useFactory: (sessions: PlatformSessionRepository, secretBox: SecretBox, fingerprints: CredentialFingerprints, platforms: readonly PlatformEntry[]) => {
        const config = validatePlatformClientConfig(platforms, process.env);
        const sessionStore = new PostgresSessionStore(sessions, secretBox, fingerprints, { loginLeaseMs: config.PLATFORM_HTTP_TIMEOUT_MS + LOGIN_LEASE_MARGIN_MS });
        return new PlatformAdapters(config, undefined, { sessionStore, platforms });
      },
    },
    {
      provide: PlatformRegistry,
      inject: [REGISTERED_PLATFORMS],
      useFactory: (platforms: readonly PlatformEntry[]) => PlatformRegistry.fromEnv(process.env, platforms.map((platform) => platform.definition)),
    },
    PlatformSessionRepository,
    PlatformCallBudgetRepository,
    IntegrationDirectory,
    PlatformCallBudgets,
  ],
  exports: [PlatformAdapters, PlatformRegistry, SecretBox, IntegrationDirectory, PlatformCallBudgets],
})
export class PlatformSessionsModule {}
