import { Module } from '@nestjs/common';
import { ACCOUNT_KEY_LOOKUP, ApiCredentialsGuard } from '@courier/http';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { PlatformSessionsModule } from '../platform-sessions/platform-sessions.module';
import { CatalogImportWorker } from './catalog-import.worker';
import { CatalogController } from './catalog.controller';
import { CatalogMetrics } from './catalog.metrics';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';

/**
 * The restaurant's catalog (docs/catalog.md): menu imports on demand and on a schedule, the mapping
 * of platform products to the restaurant's codes, and the drift re-imports find.
 */
@Module({
  imports: [AccountDirectoryModule, PlatformSessionsModule],
  controllers: [CatalogController],
  providers: [CatalogRepository, CatalogService, CatalogImportWorker, CatalogMetrics, ApiCredentialsGuard, { provide: ACCOUNT_KEY_LOOKUP, useExisting: AccountDirectoryRepository }],
  exports: [CatalogService, CatalogRepository],
})
export class CatalogModule {}
