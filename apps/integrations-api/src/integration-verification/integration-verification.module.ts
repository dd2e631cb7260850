import { Module } from '@nestjs/common';
import { PlatformAdapters, PLATFORMS } from '@courier/platforms';
import { RepositoriesModule } from '../repositories/repositories.module';
import { IntegrationFingerprints } from './integration-fingerprints';
import { IntegrationVerificationService } from './integration-verification.service';

/**
 * The platforms' verification of integrations. The platform adapters come from libs/platforms with
 * their PLATFORM_* settings (PLATFORM_CLIENT_CONFIGS), validated when the app is created.
 */
@Module({
  imports: [RepositoriesModule],
  providers: [IntegrationVerificationService, IntegrationFingerprints, { provide: PlatformAdapters, useFactory: () => PlatformAdapters.fromEnv(process.env, { platforms: PLATFORMS }) }],
  exports: [IntegrationVerificationService, PlatformAdapters],
})
export class IntegrationVerificationModule {}
