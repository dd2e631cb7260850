import { Module } from '@nestjs/common';
import { ACCOUNT_KEY_LOOKUP, ApiCredentialsGuard } from '@courier/http';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { InternalAuthModule } from '../internal-auth/internal-auth.module';
import { PlatformSessionsModule } from '../platform-sessions/platform-sessions.module';
import { AvailabilityCommandWorker } from './availability-command.worker';
import { AvailabilityReadBack } from './availability-read-back';
import { AvailabilityController } from './availability.controller';
import { AvailabilityMetrics } from './availability.metrics';
import { AvailabilityRepository } from './availability.repository';
import { AvailabilityService } from './availability.service';
import { InternalAvailabilityController } from './internal-availability.controller';

/**
 * Restaurant availability (docs/availability.md): the management and internal API, the durable
 * platform commands and their timers, the read-back of the stores' state. A platform's own inbound
 * availability call (its inbound pieces) reports through AvailabilityService.
 */
@Module({
  imports: [AccountDirectoryModule, InternalAuthModule, PlatformSessionsModule],
  controllers: [AvailabilityController, InternalAvailabilityController],
  providers: [AvailabilityRepository, AvailabilityService, AvailabilityCommandWorker, AvailabilityReadBack, AvailabilityMetrics, ApiCredentialsGuard, { provide: ACCOUNT_KEY_LOOKUP, useExisting: AccountDirectoryRepository }],
  exports: [AvailabilityService, AvailabilityRepository],
})
export class AvailabilityModule {}
