import { Module } from '@nestjs/common';
import { PlatformAdapters } from '@courier/platforms';
import { AccountsModule } from '../accounts/accounts.module';
import { IntegrationCheckLimitGuard } from './integration-check-limit.guard';
import { IntegrationCheckController } from './integration-check.controller';
import { IntegrationCheckMetrics } from './integration-check.metrics';
import { IntegrationCheckService } from './integration-check.service';
import { RepositoriesModule } from '../repositories/repositories.module';

/**
 * The credential check of integrations. The platform adapters come from libs/platforms with their
 * PLATFORM_* settings (PlatformClientConfig), validated when the app is created.
 */
@Module({
  imports: [RepositoriesModule, AccountsModule],
  controllers: [IntegrationCheckController],
  providers: [IntegrationCheckService, IntegrationCheckLimitGuard, IntegrationCheckMetrics, { provide: PlatformAdapters, useFactory: () => PlatformAdapters.fromEnv(process.env) }],
})
export class IntegrationCheckModule {}
