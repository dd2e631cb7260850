import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { IntegrationVerificationModule } from '../integration-verification/integration-verification.module';
import { IntegrationCheckLimitGuard } from './integration-check-limit.guard';
import { IntegrationCheckController } from './integration-check.controller';
import { IntegrationCheckMetrics } from './integration-check.metrics';
import { IntegrationCheckService } from './integration-check.service';
import { RepositoriesModule } from '../repositories/repositories.module';

/** The credential check of integrations on demand: the verification (IntegrationVerificationModule) run now. */
@Module({
  imports: [RepositoriesModule, AccountsModule, IntegrationVerificationModule],
  controllers: [IntegrationCheckController],
  providers: [IntegrationCheckService, IntegrationCheckLimitGuard, IntegrationCheckMetrics],
})
export class IntegrationCheckModule {}
