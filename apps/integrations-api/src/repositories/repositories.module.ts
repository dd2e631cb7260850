import { Module } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository';
import { IntegrationsRepository } from './integrations.repository';
import { PlatformRestaurantsRepository } from './platform-restaurants.repository';

/** The app's one way to the database: a repository per group of tables, returning camelCase types. */
@Module({
  providers: [AccountsRepository, IntegrationsRepository, PlatformRestaurantsRepository],
  exports: [AccountsRepository, IntegrationsRepository, PlatformRestaurantsRepository],
})
export class RepositoriesModule {}
