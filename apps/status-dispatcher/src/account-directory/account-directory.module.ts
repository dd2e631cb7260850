import { Module } from '@nestjs/common';
import { AccountDirectoryConsumer } from './account-directory.consumer';
import { AccountDirectoryRepository } from './account-directory.repository';

/**
 * The dispatcher's read model of restaurant accounts and integrations (tables restaurant_accounts
 * and integrations). The order lifecycle does not consult it; the platform status push will.
 */
@Module({
  controllers: [AccountDirectoryConsumer],
  providers: [AccountDirectoryRepository],
  exports: [AccountDirectoryRepository],
})
export class AccountDirectoryModule {}
