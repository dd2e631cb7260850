import { Injectable, Logger } from '@nestjs/common';
import { maskSecret, SECRET_MASK, SecretBox, secretBinding } from '@courier/crypto';
import { PlatformRegistry } from '@courier/platforms';
import { IntegrationEntity } from './integration.entity';

/** An integration as the API returns it: clear identifiers, masked secrets. */
export type IntegrationRecord = {
  id: string;
  platform: string;
  providerRestaurantId: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
} & Record<string, string | boolean>;

/**
 * Turns stored integrations into records. Secrets are opened only to take their last 4
 * characters; a secret that cannot be opened (key missing from the keyring) shows as a bare mask.
 */
@Injectable()
export class IntegrationPresenter {
  private readonly logger = new Logger('IntegrationPresenter');

  constructor(
    private readonly registry: PlatformRegistry,
    private readonly secretBox: SecretBox,
  ) {}

  toRecord(integration: IntegrationEntity): IntegrationRecord {
    const platform = this.registry.byCode(integration.platform);
    const fieldOrder = platform ? platform.fields.map((field) => field.name) : [...Object.keys(integration.settings), ...Object.keys(integration.secrets)];
    const record: Record<string, string | boolean> = {
      id: integration.id,
      platform: this.registry.wireCodeOf(integration.platform),
      providerRestaurantId: integration.providerRestaurantId,
      isActive: integration.isActive,
    };
    for (const name of fieldOrder) {
      if (name in integration.secrets) record[name] = this.mask(integration, name);
      else if (name in integration.settings) record[name] = integration.settings[name];
    }
    record.createdAt = integration.createdAt.toISOString();
    record.updatedAt = integration.updatedAt.toISOString();
    return record as IntegrationRecord;
  }

  private mask(integration: IntegrationEntity, field: string): string {
    try {
      return maskSecret(this.secretBox.decrypt(integration.secrets[field], secretBinding.integrationSecret(integration.id, field)));
    } catch (error) {
      this.logger.error({ integrationId: integration.id, field, reason: (error as Error).message }, 'stored secret cannot be opened');
      return SECRET_MASK;
    }
  }
}
