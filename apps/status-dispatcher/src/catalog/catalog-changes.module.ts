import { Module } from '@nestjs/common';
import { ACCOUNT_KEY_LOOKUP, ApiCredentialsGuard } from '@courier/http';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { AvailabilityModule } from '../availability/availability.module';
import { PlatformSessionsModule } from '../platform-sessions/platform-sessions.module';
import { CatalogChangesController } from './catalog-changes.controller';
import { CatalogChangesRepository } from './catalog-changes.repository';
import { CatalogChangesService } from './catalog-changes.service';

/**
 * Sold out and price by the restaurant's product code (docs/catalog.md): the commands are the
 * availability machinery's (AvailabilityModule sends them, kinds `product` and `price`).
 */
@Module({
  imports: [AccountDirectoryModule, AvailabilityModule, PlatformSessionsModule],
  controllers: [CatalogChangesController],
  providers: [CatalogChangesRepository, CatalogChangesService, ApiCredentialsGuard, { provide: ACCOUNT_KEY_LOOKUP, useExisting: AccountDirectoryRepository }],
})
export class CatalogChangesModule {}
