import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { IntegrationVerificationModule } from '../integration-verification/integration-verification.module';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';
import { AdminTokenGuard } from './admin-token.guard';
import { PlatformRestaurantsController } from './platform-restaurants.controller';
import { PlatformRestaurantsService } from './platform-restaurants.service';
import { RepositoriesModule } from '../repositories/repositories.module';

/** The operator's API over accounts, claimed platform restaurants (and the secrets re-encryption). */
@Module({
  imports: [RepositoriesModule, AccountsModule, IntegrationVerificationModule],
  controllers: [AdminController, PlatformRestaurantsController],
  providers: [AdminService, AdminTokenGuard, PlatformRestaurantsService],
})
export class AdminModule {}
