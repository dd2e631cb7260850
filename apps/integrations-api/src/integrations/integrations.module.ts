import { Module } from '@nestjs/common';
import { PlatformRegistry } from '@courier/platforms';
import { AccountsModule } from '../accounts/accounts.module';
import { IntegrationVerificationModule } from '../integration-verification/integration-verification.module';
import { IntegrationPresenter } from './integration.presenter';
import { describeIntegrationSchemas } from './integration-schemas';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsService } from './integrations.service';
import { RepositoriesModule } from '../repositories/repositories.module';

/** The seven integration endpoints of interface.md. */
@Module({
  imports: [RepositoriesModule, AccountsModule, IntegrationVerificationModule],
  controllers: [IntegrationsController],
  providers: [
    IntegrationsService,
    IntegrationPresenter,
    // The OpenAPI document shows the deployment's wire codes (it is generated after providers exist).
    { provide: 'INTEGRATION_SCHEMAS', inject: [PlatformRegistry], useFactory: (registry: PlatformRegistry) => describeIntegrationSchemas(registry) },
  ],
})
export class IntegrationsModule {}
