import { Injectable } from '@nestjs/common';
import { RoutingKey } from '@courier/contracts';
import { generateWebhookSigningSecret, maskSecret, SECRET_MASK, SecretBox, secretBinding } from '@courier/crypto';
import { UnitOfWork } from '@courier/messaging';
import { restaurantNotFound } from '../accounts/accounts.service';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { WebhookUrlPolicy } from '../common/webhook-url.policy';
import { AccountsRepository } from '../repositories/accounts.repository';
import { SigningSecretDto, UpdateWebhookSettingsDto, WebhookSettingsDto } from './dto/webhook-settings.dto';

/** The account's webhook receiver URLs and signing secret (the "panel" settings). */
@Injectable()
export class WebhookSettingsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly secretBox: SecretBox,
    private readonly urlPolicy: WebhookUrlPolicy,
  ) {}

  view(restaurant: RestaurantEntity): WebhookSettingsDto {
    return {
      statusUrl: restaurant.webhookStatusUrl,
      cancelUrl: restaurant.webhookCancelUrl,
      signingEnabled: restaurant.webhookSigningSecret !== null,
      signingSecret: restaurant.webhookSigningSecret === null ? null : this.mask(restaurant.id, restaurant.webhookSigningSecret),
      updatedAt: restaurant.updatedAt.toISOString(),
    };
  }

  async update(restaurant: RestaurantEntity, request: UpdateWebhookSettingsDto): Promise<WebhookSettingsDto> {
    const urls = await this.urlPolicy.check({ statusUrl: request.statusUrl, cancelUrl: request.cancelUrl });
    const changed = await this.unitOfWork.run((tx) =>
      this.accounts.change(tx, RoutingKey.WebhookSettingsChanged, restaurant.id, (account) => {
        let different = false;
        if (urls.statusUrl !== undefined && urls.statusUrl !== account.webhookStatusUrl) {
          account.webhookStatusUrl = urls.statusUrl;
          different = true;
        }
        if (urls.cancelUrl !== undefined && urls.cancelUrl !== account.webhookCancelUrl) {
          account.webhookCancelUrl = urls.cancelUrl;
          different = true;
        }
        return different;
      }),
    );
    if (!changed) throw restaurantNotFound();
    return this.view(changed);
  }

  /** Creates or replaces the signing secret; returns it in clear this once. */
  async rotateSigningSecret(restaurant: RestaurantEntity): Promise<SigningSecretDto> {
    const signingSecret = generateWebhookSigningSecret();
    const changed = await this.unitOfWork.run((tx) =>
      this.accounts.change(tx, RoutingKey.WebhookSettingsChanged, restaurant.id, (account) => {
        account.webhookSigningSecret = this.secretBox.encrypt(signingSecret, secretBinding.webhookSigningSecret(restaurant.id));
      }),
    );
    if (!changed) throw restaurantNotFound();
    return { signingSecret, createdAt: changed.updatedAt.toISOString() };
  }

  /** Turns signing off (no-op when it is off). */
  async removeSigningSecret(restaurant: RestaurantEntity): Promise<void> {
    await this.unitOfWork.run((tx) =>
      this.accounts.change(tx, RoutingKey.WebhookSettingsChanged, restaurant.id, (account) => {
        if (account.webhookSigningSecret === null) return false;
        account.webhookSigningSecret = null;
      }),
    );
  }

  private mask(restaurantId: string, ciphertext: string): string {
    try {
      return maskSecret(this.secretBox.decrypt(ciphertext, secretBinding.webhookSigningSecret(restaurantId)));
    } catch {
      return SECRET_MASK;
    }
  }
}
