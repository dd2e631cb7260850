import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { WebhookSettingsController } from './webhook-settings.controller';
import { WebhookSettingsService } from './webhook-settings.service';
import { RepositoriesModule } from '../repositories/repositories.module';

/** GET/PUT /api/v1/my/webhooks, POST/DELETE /api/v1/my/webhooks/secret. */
@Module({
  imports: [RepositoriesModule, AccountsModule],
  controllers: [WebhookSettingsController],
  providers: [WebhookSettingsService],
})
export class WebhookSettingsModule {}
