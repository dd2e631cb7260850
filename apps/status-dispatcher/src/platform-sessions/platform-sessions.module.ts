import { Module } from '@nestjs/common';
import { SecretBox } from '@courier/crypto';
import { PlatformAdapters, PlatformRegistry } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { IntegrationDirectory } from './integration-directory';

/**
 * What every platform call needs: the adapters (PLATFORM_*_BASE_URL ..., validated at start; their
 * session cache holds the tokens per integration), the registry of wire codes, and the integrations
 * with their credentials.
 */
@Module({
  providers: [
    { provide: PlatformAdapters, useFactory: () => PlatformAdapters.fromEnv(process.env) },
    { provide: PlatformRegistry, useFactory: () => PlatformRegistry.fromEnv(process.env) },
    { provide: SecretBox, inject: [DispatcherConfig], useFactory: (config: DispatcherConfig) => SecretBox.fromKeyList(config.SECRETS_ENCRYPTION_KEYS) },
    IntegrationDirectory,
  ],
  exports: [PlatformAdapters, PlatformRegistry, SecretBox, IntegrationDirectory],
})
export class PlatformSessionsModule {}
