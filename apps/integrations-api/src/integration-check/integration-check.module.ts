import { Module } from '@nestjs/common';
import { PlatformAdapters } from '@courier/platforms';
import { AccountsModule } from '../accounts/accounts.module';
import { IntegrationCheckController } from './integration-check.controller';
import { IntegrationCheckService } from './integration-check.service';
import { RepositoriesModule } from '../repositories/repositories.module';

/**
 * The credential check of integrations. The platform adapters come from libs/platforms with their
 * PLATFORM_* settings (PlatformClientConfig), validated when the app is created.
 */
@Module({
  imports: [RepositoriesModule, AccountsModule],
  controllers: [IntegrationCheckController],
  providers: [IntegrationCheckService, { provide: PlatformAdapters, useFactory: () => PlatformAdapters.fromEnv(process.env) }],
})
export class IntegrationCheckModule {}
