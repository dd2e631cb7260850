import { Injectable, Logger } from '@nestjs/common';
import { maskSecret, SECRET_MASK, SecretBox, secretBinding } from '@courier/crypto';
import { PlatformRegistry } from '@courier/platforms';
import type { IntegrationVerificationState } from '@courier/contracts';
import { IntegrationEntity } from './integration.entity';

/** The platform's verdict on an integration, as the API shows it. */
export interface IntegrationVerificationView {
  state: IntegrationVerificationState;
  verifiedAt: string | null;
  detail: string | null;
  fingerprint: string | null;
}

/** An integration as the API returns it: clear identifiers, masked secrets, its verification. */
export type IntegrationRecord = {
  id: string;
  platform: string;
  providerRestaurantId: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  verification: IntegrationVerificationView;
} & Record<string, string | boolean | IntegrationVerificationView>;

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
    const record: Record<string, string | boolean | IntegrationVerificationView> = {
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
    record.verification = verificationView(integration);
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

export function verificationView(integration: IntegrationEntity): IntegrationVerificationView {
  return {
    state: integration.verificationState,
    verifiedAt: integration.verificationState === 'verified' ? (integration.verificationVerifiedAt?.toISOString() ?? null) : null,
    detail: integration.verificationDetail,
    fingerprint: integration.verificationFingerprint,
  };
}
