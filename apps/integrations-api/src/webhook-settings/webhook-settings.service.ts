import { Injectable } from '@nestjs/common';
import { RoutingKey } from '@courier/contracts';
import { generateWebhookSigningSecret, maskSecret, SECRET_MASK, SecretBox, secretBinding } from '@courier/crypto';
import { UnitOfWork } from '@courier/messaging';
import { restaurantNotFound } from '../accounts/accounts.service';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { WebhookUrlPolicy } from '../common/webhook-url.policy';
import { IntegrationsConfig } from '../app/integrations-api.config';
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
    private readonly config: IntegrationsConfig,
  ) {}

  view(restaurant: RestaurantEntity): WebhookSettingsDto {
    return {
      statusUrl: restaurant.webhookStatusUrl,
      cancelUrl: restaurant.webhookCancelUrl,
      signingEnabled: restaurant.webhookSigningSecret !== null,
      signingSecret: restaurant.webhookSigningSecret === null ? null : this.mask(restaurant.id, restaurant.webhookSigningSecret),
      previousSecretValidUntil: previousSecretValidUntil(restaurant, new Date()),
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

  /**
   * Creates or replaces the signing secret; returns it in clear this once. A replaced secret keeps
   * signing beside the new one for WEBHOOK_SECRET_ROTATION_GRACE, so receivers can switch without
   * refusing webhooks; a secret older than that (an earlier rotation's) is dropped, so at most two sign.
   */
  async rotateSigningSecret(restaurant: RestaurantEntity): Promise<SigningSecretDto> {
    const signingSecret = generateWebhookSigningSecret();
    const graceMs = this.config.WEBHOOK_SECRET_ROTATION_GRACE;
    const changed = await this.unitOfWork.run((tx) =>
      this.accounts.change(tx, RoutingKey.WebhookSettingsChanged, restaurant.id, (account, now) => {
        const replaced = account.webhookSigningSecret;
        // The ciphertext moves as it is: it is bound to the account, not to the column.
        account.webhookPreviousSigningSecret = replaced !== null && graceMs > 0 ? replaced : null;
        account.webhookPreviousSigningSecretValidUntil = account.webhookPreviousSigningSecret === null ? null : new Date(now.getTime() + graceMs);
        account.webhookSigningSecret = this.secretBox.encrypt(signingSecret, secretBinding.webhookSigningSecret(restaurant.id));
      }),
    );
    if (!changed) throw restaurantNotFound();
    return {
      signingSecret,
      createdAt: changed.updatedAt.toISOString(),
      previousSecretValidUntil: changed.webhookPreviousSigningSecretValidUntil?.toISOString() ?? null,
    };
  }

  /** Turns signing off (no-op when it is off); a rotation's grace period ends with it. */
  async removeSigningSecret(restaurant: RestaurantEntity): Promise<void> {
    await this.unitOfWork.run((tx) =>
      this.accounts.change(tx, RoutingKey.WebhookSettingsChanged, restaurant.id, (account) => {
        if (account.webhookSigningSecret === null && account.webhookPreviousSigningSecret === null) return false;
        account.webhookSigningSecret = null;
        account.webhookPreviousSigningSecret = null;
        account.webhookPreviousSigningSecretValidUntil = null;
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

/** The end of the running rotation grace period (ISO 8601), or null when none runs at `now`. */
function previousSecretValidUntil(restaurant: RestaurantEntity, now: Date): string | null {
  const until = restaurant.webhookPreviousSigningSecretValidUntil;
  return restaurant.webhookPreviousSigningSecret !== null && until !== null && until > now ? until.toISOString() : null;
}
