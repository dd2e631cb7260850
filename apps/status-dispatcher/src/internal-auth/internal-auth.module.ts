import { Module } from '@nestjs/common';
import { InternalApiKeyGuard } from './internal-api-key.guard';

/** The key check of every /internal/* endpoint (order lifecycle now, the platform status push next). */
@Module({
  providers: [InternalApiKeyGuard],
  exports: [InternalApiKeyGuard],
})
export class InternalAuthModule {}
